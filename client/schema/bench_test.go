package schema

import (
	"encoding/json"
	"testing"
)

// What a `tools call` pays for typing and validation: Compile the cached
// inputSchema, Coerce the key=value strings, Validate. BENCHMARKS.md
// ("JSON Schema validator") quotes it.
func BenchmarkToolCallArguments(b *testing.B) {
	args := json.RawMessage(`{"location":"SF","units":"metric"}`)
	paths := [][]string{{"location"}, {"units"}}
	b.ReportAllocs()
	for b.Loop() {
		s, err := Compile(json.RawMessage(weatherSchema), DefaultLimits)
		if err != nil {
			b.Fatal(err)
		}
		typed, err := s.Coerce(args, paths)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Validate(typed); err != nil {
			b.Fatal(err)
		}
	}
}
