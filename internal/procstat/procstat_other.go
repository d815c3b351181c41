//go:build !linux && !darwin && !windows

package procstat

import "time"

// Outside the systems difffuzz is released for, nothing is measured.

func processCPU(int) time.Duration                      { return 0 }
func selfUsage() (cpu time.Duration, maxRSSBytes int64) { return 0, 0 }
func currentRSS() int64                                 { return 0 }
func threadCPU() time.Duration                          { return 0 }
