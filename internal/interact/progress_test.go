package interact

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/output"
)

// A burst of updates is drawn a few times, not once per update; the last
// state is drawn by done, and the bar is then cleared.
func TestProgressRedrawsAreBounded(t *testing.T) {
	t.Parallel()
	ios, _, _, errOut := output.Test()
	v, err := NewProgress("bar", ios)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 10000; i++ {
		v.Update([]byte(fmt.Sprintf(`{"progressToken":1,"progress":%d,"total":10000}`, i)))
	}
	v.Done()
	got := errOut.String()
	if draws := strings.Count(got, "\r\x1b[K"); draws > 100 {
		t.Errorf("%d redraws for 10000 updates in a burst", draws)
	}
	if !strings.Contains(got, "100% 10000/10000") || !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("the final state was not drawn and cleared: %q", got[max(0, len(got)-120):])
	}
}

// An update held back is drawn when its interval is up, without waiting
// for another one; a suspended bar draws nothing until resumed.
func TestProgressPendingIsDrawnLater(t *testing.T) {
	t.Parallel()
	ios, _, _, errOut := output.Test()
	v, _ := NewProgress("bar", ios)
	v.Update([]byte(`{"progress":1,"total":4}`))
	v.Update([]byte(`{"progress":2,"total":4}`))
	waitFor(t, func() bool { v.mu.Lock(); defer v.mu.Unlock(); return strings.Contains(errOut.String(), "2/4") })

	resume := v.suspend()
	v.Update([]byte(`{"progress":3,"total":4}`))
	time.Sleep(3 * redrawEvery)
	v.mu.Lock()
	drawn := strings.Contains(errOut.String(), "3/4")
	v.mu.Unlock()
	if drawn {
		t.Fatal("the bar was drawn while suspended")
	}
	resume()
	waitFor(t, func() bool { v.mu.Lock(); defer v.mu.Unlock(); return strings.Contains(errOut.String(), "3/4") })
	v.Done()
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("never happened")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Issue 14 item 6: the bar is fitted to the terminal in cells, one short
// of the width, so that a message with emoji does not wrap the line the
// next \r must return to: ✅ is two cells, 👍🏽 one two-cell glyph (its
// two runes are never split).
func TestProgressFitsInCells(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := output.Test()
	ios.SetTerminalWidth(40)
	v, _ := NewProgress("bar", ios)
	now := time.Now()
	v.start = now
	total := 2.0
	const prefix = "[##########----------]  50% 1/2 " // 32 cells
	for _, tc := range []struct{ msg, want string }{
		{"✅👍🏽✅👍🏽✅👍🏽", prefix + "✅👍🏽✅…"},
		{"✅✅✅✅✅", prefix + "✅✅✅…"},
		{"✅✅✅", prefix + "✅✅✅"},
		{"abcdefghij", prefix + "abcdef…"},
	} {
		if got := v.line(1, &total, tc.msg, now); got != tc.want {
			t.Errorf("message %q: line\n%q, want\n%q", tc.msg, got, tc.want)
		}
	}
}
