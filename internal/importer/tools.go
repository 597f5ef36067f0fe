package importer

import "github.com/hookshim/hookshim/internal/provider"

// Tools are the tools import reads, in registry order.
func Tools() []*provider.Provider {
	var ps []*provider.Provider
	for _, p := range provider.All {
		if Check(p) == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// IDs are the ids of the tools import reads.
func IDs() []string {
	var ids []string
	for _, p := range Tools() {
		ids = append(ids, p.ID)
	}
	return ids
}
