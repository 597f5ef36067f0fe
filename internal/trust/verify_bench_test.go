package trust

import "testing"

// The check every call of an allowed project makes: the record, the
// config and a small hooks/ folder.
func BenchmarkVerify(b *testing.B) {
	f := project(b, map[string]string{"hooks/h.sh": ". ./lib.sh\nguard\n", "hooks/lib.sh": "guard() { :; }\n"}, "cd hooks && sh h.sh")
	dir := b.TempDir()
	s := Store{Dir: dir + "/trust"}
	if _, _, err := s.Allow(f); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if v, err := s.Verify(f.Path); v.State != Allowed || err != nil {
			b.Fatal(v.State, err)
		}
	}
}
