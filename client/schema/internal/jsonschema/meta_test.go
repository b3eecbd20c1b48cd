package jsonschema

// Tests for the metaschema handling that mcpctl changed (see README.md):
// every draft still validates schemas against its metaschema, custom
// metaschemas still select vocabularies, and all of it is safe from several
// goroutines. Upstream's own tests are not vendored.

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

var allDrafts = []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020}

// compileDoc compiles doc with a new Compiler whose default draft is d.
func compileDoc(d *Draft, doc any) (*Schema, error) {
	c := NewCompiler()
	c.DefaultDraft(d)
	if err := c.AddResource("urn:test:schema", doc); err != nil {
		return nil, err
	}
	return c.Compile("urn:test:schema")
}

func TestMetaschemaValidationPerDraft(t *testing.T) {
	for _, d := range allDrafts {
		t.Run(fmt.Sprint(d.version), func(t *testing.T) {
			// Without $schema (the compiler's default draft is d), and with
			// $schema (the default draft is another one, or 2020-12 itself).
			for _, withSchema := range []bool{false, true} {
				doc := map[string]any{"type": "object", "minProperties": 1.0}
				bad := map[string]any{"type": 5.0}
				def := d
				if withSchema {
					doc["$schema"], bad["$schema"] = d.url, d.url
					def = Draft2020
				}
				sch, err := compileDoc(def, doc)
				if err != nil {
					t.Fatalf("$schema=%v: valid schema refused: %v", withSchema, err)
				}
				if sch.DraftVersion != d.version {
					t.Errorf("$schema=%v: DraftVersion = %d, want %d", withSchema, sch.DraftVersion, d.version)
				}
				if err := sch.Validate(map[string]any{"a": 1.0}); err != nil {
					t.Errorf("$schema=%v: valid instance refused: %v", withSchema, err)
				}
				if err := sch.Validate(map[string]any{}); err == nil {
					t.Errorf("$schema=%v: invalid instance accepted", withSchema)
				}
				_, err = compileDoc(def, bad)
				var sve *SchemaValidationError
				if !errors.As(err, &sve) {
					t.Errorf("$schema=%v: {\"type\": 5} gave %v, want a *SchemaValidationError", withSchema, err)
				}
			}
		})
	}
}

// A custom metaschema that declares only some vocabularies: the schema is
// checked against those vocabularies' metaschemas (the vocabSchs path).
func TestCustomMetaschemaVocabularies(t *testing.T) {
	for _, tc := range []struct {
		draft *Draft
		base  string
	}{
		{Draft2019, "https://json-schema.org/draft/2019-09/"},
		{Draft2020, "https://json-schema.org/draft/2020-12/"},
	} {
		t.Run(fmt.Sprint(tc.draft.version), func(t *testing.T) {
			meta := map[string]any{
				"$schema": tc.draft.url,
				"$id":     "http://example.com/meta",
				"$vocabulary": map[string]any{
					tc.base + "vocab/core":       true,
					tc.base + "vocab/applicator": true,
					tc.base + "vocab/validation": true,
				},
			}
			compile := func(doc map[string]any) error {
				c := NewCompiler()
				if err := c.AddResource("http://example.com/meta", meta); err != nil {
					t.Fatal(err)
				}
				doc["$schema"] = "http://example.com/meta"
				if err := c.AddResource("urn:test:schema", doc); err != nil {
					t.Fatal(err)
				}
				_, err := c.Compile("urn:test:schema")
				return err
			}
			// validation vocabulary: minimum must be a number.
			if err := compile(map[string]any{"minimum": "x"}); err == nil {
				t.Error(`{"minimum": "x"} accepted, want refused by the validation vocabulary`)
			}
			// format vocabulary not declared: its metaschema is not applied.
			if err := compile(map[string]any{"format": 5.0}); err != nil {
				t.Errorf(`{"format": 5} refused (%v), want accepted: format vocabulary not declared`, err)
			}
			if err := compile(map[string]any{"type": "string", "minimum": 1.0}); err != nil {
				t.Errorf("valid schema refused: %v", err)
			}
		})
	}
}

// Compilers used from several goroutines at once, each of its own, all
// needing the (shared, global) metaschemas. Run with -race.
func TestConcurrentCompilers(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := 0; i < 8; i++ {
		for _, d := range allDrafts {
			wg.Add(1)
			go func(d *Draft) {
				defer wg.Done()
				sch, err := compileDoc(d, map[string]any{"type": "string"})
				if err != nil {
					errs <- err
					return
				}
				if err := sch.Validate(1.0); err == nil {
					errs <- fmt.Errorf("draft %d: 1 accepted as a string", d.version)
				}
				if _, err := compileDoc(d, map[string]any{"type": 5.0}); err == nil {
					errs <- fmt.Errorf("draft %d: {\"type\": 5} accepted", d.version)
				}
			}(d)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
