package output

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The text of a large tools/list (1,000 tools of 21 properties): each
// tool's schema is read (schema.Read) for its "args:" line.
func BenchmarkRenderToolsListText(b *testing.B) {
	var tools []string
	for i := 0; i < 1000; i++ {
		var props []string
		for j := 0; j < 21; j++ {
			props = append(props, fmt.Sprintf(`"p%d":{"type":"string","description":"d"}`, j))
		}
		tools = append(tools, fmt.Sprintf(`{"name":"t%d","description":"x","inputSchema":{"type":"object","properties":{%s},"required":["p1"]}}`, i, strings.Join(props, ",")))
	}
	raw := []byte(`{"tools":[` + strings.Join(tools, ",") + `]}`)
	for b.Loop() {
		ios, _, _, _ := Test()
		if err := Render(context.Background(), ios, Options{Format: FormatText}, KindToolsList, raw); err != nil {
			b.Fatal(err)
		}
	}
}
