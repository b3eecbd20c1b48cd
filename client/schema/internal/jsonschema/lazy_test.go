package jsonschema

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// TestMain checks, before any test can compile a metaschema, that package
// init compiled none (the point of the vendored copy), and that compiling a
// 2020-12 schema compiles the 2020-12 metaschemas only.
func TestMain(m *testing.M) {
	if err := checkLazy(); err != nil {
		fmt.Fprintln(os.Stderr, "lazy metaschemas:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func checkLazy() error {
	for _, d := range allDrafts {
		if d.sch != nil || d.vocabSchs != nil {
			return fmt.Errorf("draft %d: metaschema compiled by package init", d.version)
		}
	}
	c := NewCompiler()
	if err := c.AddResource("urn:test:lazy", map[string]any{"type": "string"}); err != nil {
		return err
	}
	if _, err := c.Compile("urn:test:lazy"); err != nil {
		return err
	}
	for _, d := range allDrafts {
		compiled := d.sch != nil
		if want := d == Draft2020; compiled != want {
			return fmt.Errorf("draft %d: compiled=%v after compiling a 2020-12 schema, want %v", d.version, compiled, want)
		}
	}
	if len(Draft2020.vocabSchs) != len(Draft2020.allVocabs) {
		return fmt.Errorf("draft 2020: %d vocab metaschemas compiled, want %d", len(Draft2020.vocabSchs), len(Draft2020.allVocabs))
	}
	return nil
}

// meta on a Draft nobody has used yet, from many goroutines at once: every
// caller gets the same, complete result. Run with -race.
func TestMetaOnceConcurrent(t *testing.T) {
	for _, g := range allDrafts {
		d := &Draft{
			version:       g.version,
			url:           g.url,
			id:            g.id,
			subschemas:    g.subschemas,
			vocabPrefix:   g.vocabPrefix,
			allVocabs:     g.allVocabs,
			defaultVocabs: g.defaultVocabs,
		}
		const n = 16
		schs := make([]*Schema, n)
		vocabs := make([]map[string]*Schema, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				schs[i], vocabs[i] = d.meta()
			}()
		}
		wg.Wait()
		for i := range n {
			if schs[i] == nil || schs[i] != schs[0] {
				t.Fatalf("draft %d: caller %d got metaschema %p, caller 0 got %p", d.version, i, schs[i], schs[0])
			}
			if len(vocabs[i]) != len(d.allVocabs) {
				t.Fatalf("draft %d: caller %d got %d vocab metaschemas, want %d", d.version, i, len(vocabs[i]), len(d.allVocabs))
			}
			for name := range d.allVocabs {
				if vocabs[i][name] == nil || vocabs[i][name] != vocabs[0][name] {
					t.Fatalf("draft %d: caller %d: vocab %q metaschema %p, caller 0 %p", d.version, i, name, vocabs[i][name], vocabs[0][name])
				}
			}
		}
		if want := d.url + "#"; schs[0].Location != want {
			t.Errorf("draft %d: metaschema location %q, want %q", d.version, schs[0].Location, want)
		}
	}
}
