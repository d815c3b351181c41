package gen

// OneIn reports whether case index is one of a share of one case in n,
// chosen by a hash of (seed, salt, index): the same cases each time a run
// is repeated, spread evenly, and apart from every other draw on (seed,
// index) that uses another salt. n 0 chooses none.
func OneIn(seed, salt, index, n uint64) bool {
	return n > 0 && mix64(mix64(seed^salt)+index)%n == 0
}
