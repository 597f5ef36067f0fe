package trust

import "github.com/hookshim/hookshim/internal/config"

// Allows reports whether the project config at path may run, as it is
// now, by this user's allow records.
func Allows(path string, getenv func(string) string) (bool, error) {
	f, err := config.Load(path)
	if err != nil {
		return false, err
	}
	store, err := DefaultStore(getenv)
	if err != nil {
		return false, err
	}
	state, err := store.Check(f)
	return state == Allowed, err
}
