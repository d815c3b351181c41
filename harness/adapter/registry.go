package adapter

import (
	"sync"
	"syscall"
)

// live holds every worker process that has not been reaped, so that the
// driver can kill them all when it must exit at once (a second Ctrl-C, a
// panic): no orphan, ever.
var live = struct {
	sync.Mutex
	procs map[*process]struct{}
}{procs: map[*process]struct{}{}}

func track(p *process) {
	live.Lock()
	live.procs[p] = struct{}{}
	live.Unlock()
	go func() {
		<-p.done
		live.Lock()
		delete(live.procs, p)
		live.Unlock()
	}()
}

// KillAll sends SIGKILL to the process group of every live worker. It does not
// wait; the processes are reaped by their own goroutines or by init.
func KillAll() {
	live.Lock()
	defer live.Unlock()
	for p := range live.procs {
		p.killed.Store(true)
		signalGroup(p.cmd.Process, syscall.SIGKILL)
	}
}

// Live is the number of worker processes not yet reaped; tests use it.
func Live() int {
	live.Lock()
	defer live.Unlock()
	return len(live.procs)
}
