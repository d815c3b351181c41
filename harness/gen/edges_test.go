package gen

import "testing"

// A slab's arrays are disjoint and full: appending to one (as an injected
// member does) must move it, not write over the next one taken.
func TestSlab(t *testing.T) {
	var sl slab[any]
	var taken [][]any
	for i, n := range []int{1, 2, 1, 3, 1, 1} {
		a := sl.take(n, 4)
		if len(a) != n || cap(a) != n {
			t.Fatalf("take(%d) = len %d, cap %d", n, len(a), cap(a))
		}
		for j := range a {
			if a[j] != nil {
				t.Fatalf("take %d: element %d is %v, not zero", i, j, a[j])
			}
			a[j] = i
		}
		taken = append(taken, a)
	}
	grown := append(taken[0], "appended")
	grown[0] = "moved"
	for i, a := range taken {
		for j, x := range a {
			if x != i {
				t.Errorf("array %d element %d is %v, want %d", i, j, x, i)
			}
		}
	}
}
