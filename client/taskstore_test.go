package client

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFileTaskStore(t *testing.T) {
	s := &FileTaskStore{Dir: filepath.Join(t.TempDir(), "tasks")}
	if got := s.List(); len(got) != 0 {
		t.Fatalf("a missing folder lists %v", got)
	}
	if err := s.Update("srv-a", Task{TaskID: "t1", Status: "working"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Update("srv-b", Task{TaskID: "t2", Status: "working"}); err != nil {
		t.Fatal(err)
	}
	// A later status from a caller that does not know the server keeps it.
	if err := s.Update("", Task{TaskID: "t1", Status: "completed", StatusMessage: "done"}); err != nil {
		t.Fatal(err)
	}
	recs := s.List()
	if len(recs) != 2 {
		t.Fatalf("got %d records, want 2: %+v", len(recs), recs)
	}
	r := recs[0]
	if r.TaskID != "t1" || r.Server != "srv-a" || r.Status != "completed" || r.Message != "done" {
		t.Errorf("first record %+v", r)
	}
	if r.UpdatedAt.Before(r.CreatedAt) || recs[1].CreatedAt.Before(r.CreatedAt) {
		t.Errorf("times out of order: %+v", recs)
	}
	// Anything else in the folder is not a record.
	if err := os.WriteFile(filepath.Join(s.Dir, "junk.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := s.List(); len(got) != 2 {
		t.Errorf("junk counted: %+v", got)
	}
}
