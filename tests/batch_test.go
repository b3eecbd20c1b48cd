package tests

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 16, item 2: a batch streams. 100,000 lines go through one
// connection with bounded memory: the input is read as it is sent, and no
// more than -P lines and their results are held at once. The peak resident
// set of a 100,000-line batch is held to that of a 1,000-line one plus a
// little (kept results alone would add ~15 MB), and to the fault suite's
// 64 MiB. Every line's result comes out, in input order.
func TestFaultBatchLongInput(t *testing.T) {
	bin := faultBinaries(t)
	rss := map[int]int64{}
	for _, n := range []int{1000, 100000} {
		marker := fmt.Sprintf("mcpctl-fault-%d-batch-%d", os.Getpid(), n)
		input := filepath.Join(t.TempDir(), "lines.txt")
		var b strings.Builder
		for i := 1; i <= n; i++ {
			switch i % 3 {
			case 0:
				fmt.Fprintf(&b, "tools call echo text=line-%d\n", i)
			case 1:
				fmt.Fprintf(&b, `{"method": "tools/call", "params": {"name": "echo", "arguments": {"text": "line-%d"}}}`+"\n", i)
			default:
				b.WriteString("ping\n")
			}
		}
		if err := os.WriteFile(input, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runFault(t, bin, nil, marker, 180*time.Second,
			"--stdio", "fakemcp cached "+marker, "--server-stderr", "discard", "--protocol-version", "2026-07-28",
			"batch", "-P", "8", input)
		t.Logf("%d lines: exit %d in %s, peak RSS %d MiB", n, r.code, r.elapsed.Round(time.Millisecond), r.maxRSS>>10)
		if r.code != 0 {
			t.Fatalf("exit %d; stderr:\n%s\nstdout starts %.300q", r.code, tail(r.stderr), r.stdout)
		}
		sc := bufio.NewScanner(bytes.NewReader(r.stdout))
		i := 0
		for sc.Scan() {
			i++
			want := fmt.Sprintf(`{"line":%d,"result":`, i)
			if !strings.HasPrefix(sc.Text(), want) || (i%3 != 2 && !strings.Contains(sc.Text(), fmt.Sprintf(`line-%d"`, i))) {
				t.Fatalf("output line %d is %.200q, want line %d's result", i, sc.Text(), i)
			}
		}
		if i != n {
			t.Fatalf("%d output lines for %d input lines", i, n)
		}
		if r.maxRSS > defaultMaxRSS<<10 {
			t.Errorf("%d lines: peak RSS %d MiB, over the limit of %d MiB", n, r.maxRSS>>10, defaultMaxRSS)
		}
		rss[n] = r.maxRSS
		noneLeft(t, marker)
	}
	if grew := rss[100000] - rss[1000]; grew > 8<<10 {
		t.Errorf("peak RSS grew by %d MiB from 1,000 lines to 100,000: the batch is not streamed", grew>>10)
	}
}

// Issue 24, item 6: a batch holds about twice a line's size for each line
// in flight (the line, and the request written from it; or the answer,
// and the line written from it), and a line over --max-message-size no
// more than the limit. Each run's peak resident set is held to twice
// what is in flight plus 32 MiB for the program itself. Before, one 60 MB
// line peaked at 430 MiB sent and 480 MiB answered (about 8×), eight
// 20 MB lines at -P 8 at 1.1 GiB, and a 100 MB line over the limit at
// 146 MiB. The servers answer small (huge:16, over HTTP: its memory is
// not mcpctl's) or write their answer in chunks (huge:N, over stdio).
func TestFaultBatchBigLines(t *testing.T) {
	bin := faultBinaries(t)
	sink := startFakeHTTP(t, bin, "huge:16", false)
	dir := t.TempDir()
	input := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	call := func(n int) string {
		return `{"method":"tools/call","params":{"name":"take","arguments":{"text":"` + strings.Repeat("x", n) + `"}}}`
	}
	const mib = 1 << 20
	small := `{"method":"tools/call","params":{"name":"take"}}`
	sinkResult := `"result":{"content":[{"type":"text","text":"xxxxxxxxxxxxxxxx"}]}}`
	eight := make([]string, 8)
	for i := range eight {
		eight[i] = call(20_000_000)
	}
	for _, c := range []struct {
		name   string
		server []string
		args   []string
		held   int // bytes: twice what is in flight, or the limit for a line dropped
		code   int
		want   []string // each output line, or its start and end around a NUL
	}{
		{"a 60 MB line", []string{"--url", sink}, []string{input("send.jsonl", call(60_000_000), small)}, 2 * 60_000_000, 0,
			[]string{`{"line":1,` + sinkResult, `{"line":2,` + sinkResult}},
		{"a 60 MB answer", []string{"--stdio", "fakemcp huge:60000000", "--server-stderr", "discard"}, []string{input("answer.jsonl", small)}, 2 * 60_000_000, 0,
			[]string{`{"line":1,"result":{"content":[{"type":"text","text":"xxx` + "\x00" + `xxx"}]}}`}},
		{"eight 20 MB lines at -P 8", []string{"--url", sink}, []string{"-P", "8", input("eight.jsonl", eight...)}, 2 * 8 * 20_000_000, 0,
			[]string{`{"line":1,` + sinkResult, `{"line":2,` + sinkResult, `{"line":3,` + sinkResult, `{"line":4,` + sinkResult,
				`{"line":5,` + sinkResult, `{"line":6,` + sinkResult, `{"line":7,` + sinkResult, `{"line":8,` + sinkResult}},
		{"a 100 MB line over the limit", []string{"--url", sink}, []string{input("over.jsonl", call(100_000_000), small)}, 64 * mib, 2,
			[]string{`{"line":1,"error":{"exit":2,"message":"the line is longer than --max-message-size allows (67108864 bytes): raise it, or shorten the line"}}`,
				`{"line":2,` + sinkResult}},
	} {
		t.Run(c.name, func(t *testing.T) {
			limit := int64(c.held/mib + 32) // MiB
			marker := fmt.Sprintf("mcpctl-fault-%d-bigline", os.Getpid())
			args := append(append(append([]string{}, c.server...), "--protocol-version", "2026-07-28", "batch"), c.args...)
			r := runFaultCapped(t, bin, nil, marker, 180*time.Second, int(2*limit), args...)
			t.Logf("exit %d in %s, peak RSS %d MiB (limit %d)", r.code, r.elapsed.Round(time.Millisecond), r.maxRSS>>10, limit)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, c.code, tail(r.stderr))
			}
			lines := strings.Split(strings.TrimSuffix(string(r.stdout), "\n"), "\n")
			if len(lines) != len(c.want) {
				t.Fatalf("%d output lines, want %d: %.300q", len(lines), len(c.want), r.stdout)
			}
			for i, want := range c.want {
				start, end, cut := strings.Cut(want, "\x00")
				if !strings.HasPrefix(lines[i], start) || cut && !strings.HasSuffix(lines[i], end) || !cut && lines[i] != want {
					t.Errorf("output line %d is %.200q…, want %.200q", i+1, lines[i], want)
				}
			}
			if r.maxRSS > limit<<10 {
				t.Errorf("peak RSS %d MiB, over %d MiB", r.maxRSS>>10, limit)
			}
			noneLeft(t, marker)
		})
	}
}
