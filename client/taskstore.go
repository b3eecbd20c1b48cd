package client

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mcpctl/mcpctl/client/atomicfile"
)

// TaskRecord is what is remembered of a task this machine started: enough
// to list it and to pick up the wait for it again after mcpctl (or the
// machine) restarted.
type TaskRecord struct {
	TaskID    string    `json:"taskId"`
	Server    string    `json:"server"`
	Status    string    `json:"status"`
	Message   string    `json:"statusMessage,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// FileTaskStore keeps one small JSON file per task in Dir (0700), written
// atomically like FileEraStore's, so concurrent mcpctl processes never see
// half a record. The file is named by a hash of the task id, which is the
// server's text.
type FileTaskStore struct{ Dir string }

func (s *FileTaskStore) path(id string) string {
	return filepath.Join(s.Dir, HashCredential(id)+".json")
}

// Update records t's status. server names the server the task runs on;
// "" keeps the one recorded before. The first record of a task dates its
// creation.
func (s *FileTaskStore) Update(server string, t Task) error {
	now := time.Now().UTC()
	rec := TaskRecord{TaskID: t.TaskID, Server: server, CreatedAt: now}
	if data, err := os.ReadFile(s.path(t.TaskID)); err == nil {
		_ = json.Unmarshal(data, &rec)
	}
	if server != "" {
		rec.Server = server
	}
	rec.Status, rec.Message, rec.UpdatedAt = t.Status, t.StatusMessage, now
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return atomicfile.Write(s.path(t.TaskID), data)
}

// List returns every readable record, oldest first. A missing Dir holds
// none.
func (s *FileTaskStore) List() []TaskRecord {
	files, _ := os.ReadDir(s.Dir)
	recs := []TaskRecord{}
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.Dir, f.Name()))
		if err != nil {
			continue
		}
		var r TaskRecord
		if json.Unmarshal(data, &r) == nil && r.TaskID != "" {
			recs = append(recs, r)
		}
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].CreatedAt.Before(recs[j].CreatedAt) })
	return recs
}
