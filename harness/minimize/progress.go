package minimize

// Progress is where a minimization is, for a caller that shows it while
// it runs (a run's status line): one bucket may take ten seconds, and a
// line that says nothing meanwhile looks stuck.
type Progress struct {
	// Rounds is the calls of fails so far, the first (reproduction) one
	// included.
	Rounds int
	// Size is the smallest failing value's extended JSON text so far, in
	// bytes (a pair's: both inputs').
	Size int
	// Pass is the pass whose step made the value so small (Pass.Name), or
	// for a pair the pass running; "" before the first.
	Pass string
}

// progress calls opt.Progress, if set, with p.
func (opt Options) progress(p Progress) {
	if opt.Progress != nil {
		opt.Progress(p)
	}
}
