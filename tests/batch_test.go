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
