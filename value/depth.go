package value

// Depth is v's nesting depth as the spec counts it (docs/canonical-json.md
// §3): a scalar 0, a container 1 + its deepest element's, an empty one 1.
// A judge allowing a library its own nesting limit asks it how deep a
// refused case was. It recurses once a level: the wire carries at most
// 1000.
func Depth(v any) int {
	deepest := -1 // none yet: an empty container is 1 deep
	switch x := v.(type) {
	case []any:
		for _, el := range x {
			deepest = max(deepest, Depth(el))
		}
	case Object:
		for _, m := range x {
			deepest = max(deepest, Depth(m.Value))
		}
	case RawObject:
		for _, m := range x {
			deepest = max(deepest, Depth(m.Key), Depth(m.Value))
		}
	case map[string]any:
		for _, el := range x {
			deepest = max(deepest, Depth(el))
		}
	case []string:
	default:
		return 0
	}
	return 1 + max(deepest, 0)
}
