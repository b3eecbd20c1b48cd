package commands

import (
	"testing"
	"time"
)

func TestSessionFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "session", newCmdSessionStart, []flagCase[sessionStartOptions]{
		{args: []string{"session", "start"}, want: &sessionStartOptions{idle: defaultIdle}},
		{args: []string{"session", "start", "--idle", "30s", "--name", "x", "--replace"}, want: &sessionStartOptions{idle: 30 * time.Second, name: "x", replace: true}},
		{args: []string{"session", "start", "--idle", "0s"}, err: "--idle must be positive"},
		{args: []string{"session", "start", "extra"}, err: "usage: mcpctl session start"},
	})
	checkFlags(t, "session", newCmdSessionStop, []flagCase[sessionStopOptions]{
		{args: []string{"session", "stop", "a", "b"}, want: &sessionStopOptions{names: []string{"a", "b"}}},
		{args: []string{"session", "stop", "--all"}, want: &sessionStopOptions{names: []string{}, all: true}},
		{args: []string{"session", "stop"}, err: "usage: mcpctl session stop NAME… | --all"},
		{args: []string{"session", "stop", "--all", "a"}, err: "usage: mcpctl session stop NAME… | --all"},
	})
	checkFlags(t, "session", newCmdSessionLogs, []flagCase[sessionLogsOptions]{
		{args: []string{"session", "logs", "a"}, want: &sessionLogsOptions{name: "a"}},
		{args: []string{"session", "logs"}, err: "usage: mcpctl session logs NAME"},
	})
	checkFlags(t, "session", newCmdSessionList, []flagCase[sessionListOptions]{
		{args: []string{"session", "list", "-o", "table"}, want: &sessionListOptions{}},
	})
}
