// Soak runs difffuzz for a long time and samples the resident set of the
// driver and of each of its worker processes, so that a slow leak shows as
// a curve rather than as a CI runner killed in the night.
//
// Usage:
//
//	soak [-duration 1h] [-every 1m] [-o out/soak.json] [-difffuzz bin/difffuzz] [-- RUN FLAGS...]
//
// It starts `difffuzz run -duration D -seed 9 -minimize-time -1s` with the
// flags after "--" appended (all four adapters by default), reads
// /proc/PID/status of the driver and of every child of it once every
// -every, and rewrites -o after each sample, so that a soak cut short still
// leaves its curve. At the end it prints the curve as a table and judges
// it: the driver's median resident set over the last 10 minutes may be at
// most 10% above its median over minutes 10 to 20 (the first 10 minutes are
// the warm-up: the heap grows to its goal, the workers' JITs settle). A run
// shorter than 30 minutes is printed but not judged.
//
// Exit status: 0 flat (or too short to judge), 1 grown, 2 the soak or the
// run could not be started or the run itself failed.
//
// `make soak DURATION=1h` runs it; it is not part of make test.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(Main(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// Config is one soak.
type Config struct {
	Difffuzz string        // the difffuzz binary
	Duration time.Duration // the run's length
	Every    time.Duration // between samples
	Out      string        // the curve as JSON; "" for none
	RunArgs  []string      // more flags for difffuzz run
}

// Main parses the flags, soaks and returns the exit status.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg Config
	fs.StringVar(&cfg.Difffuzz, "difffuzz", "bin/difffuzz", "the difffuzz `binary`")
	fs.DurationVar(&cfg.Duration, "duration", time.Hour, "how long the run lasts")
	fs.DurationVar(&cfg.Every, "every", time.Minute, "time between samples")
	fs.StringVar(&cfg.Out, "o", "out/soak.json", "write the curve as JSON to this `file`")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg.RunArgs = fs.Args()
	curve, runErr := Soak(ctx, cfg, stderr)
	PrintTable(stdout, curve)
	if runErr != nil {
		fmt.Fprintf(stderr, "soak: %v\n", runErr)
		return 2
	}
	v := Judge(curve.Samples)
	fmt.Fprintf(stdout, "soak: %s\n", v.Note)
	if !v.Pass {
		return 1
	}
	return 0
}

// Soak runs difffuzz and samples it until it exits; the curve holds every
// sample taken, even when the run failed.
func Soak(ctx context.Context, cfg Config, stderr io.Writer) (*Curve, error) {
	args := append([]string{"run", "-duration", cfg.Duration.String(), "-seed", "9", "-minimize-time", "-1s",
		"-corpus", "out/soak/corpus", "-report", "out/soak/report.json"}, cfg.RunArgs...)
	cmd := exec.Command(cfg.Difffuzz, args...)
	cmd.Stdout, cmd.Stderr = stderr, stderr
	curve := &Curve{Command: cmd.String(), Every: cfg.Every.Seconds()}
	if err := cmd.Start(); err != nil {
		return curve, fmt.Errorf("start difffuzz: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	start := time.Now()
	tick := time.NewTicker(cfg.Every)
	defer tick.Stop()
	for {
		select {
		case err := <-exited:
			curve.Seconds = time.Since(start).Seconds()
			if werr := curve.write(cfg.Out); werr != nil && err == nil {
				err = werr
			}
			if err != nil {
				return curve, fmt.Errorf("difffuzz run: %w", err)
			}
			return curve, nil
		case <-ctx.Done():
			cmd.Process.Signal(os.Interrupt) // the run writes its report and exits
		case <-tick.C:
			curve.Samples = append(curve.Samples, sample(cmd.Process.Pid, time.Since(start)))
			if err := curve.write(cfg.Out); err != nil {
				fmt.Fprintf(stderr, "soak: %v\n", err)
			}
		}
	}
}
