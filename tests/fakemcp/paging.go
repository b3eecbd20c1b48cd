package fakemcp

// Issue 13, item 2: servers whose lists never end, or end too slowly.
// Both answer tools/list, prompts/list and resources/list (and echo the
// rest), over stdio and Streamable HTTP:
//
//	endlesspages:BYTES  pages without end, each with a new nextCursor
//	                    ("p1", "p2", …) and one item whose description is
//	                    BYTES long (0: no items at all)
//	slowpages:MS:N      N pages, each answered after MS milliseconds;
//	                    the last has no nextCursor

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// listKeys are the list methods the paging modes answer, with the member
// that holds their items.
var listKeys = map[string]string{"tools/list": "tools", "prompts/list": "prompts", "resources/list": "resources"}

// pagingReply answers req in the paging modes; ok is false for other modes.
func (s *server) pagingReply(req request) (reply, bool) {
	mode, arg, _ := strings.Cut(s.mode, ":")
	if mode != "endlesspages" && mode != "slowpages" {
		return reply{}, false
	}
	key, isList := listKeys[req.Method]
	if !isList {
		return s.echo(req), true
	}
	var p struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(req.Params, &p)
	page, _ := strconv.Atoi(strings.TrimPrefix(p.Cursor, "p")) // "" is page 0
	next := fmt.Sprintf(`,"nextCursor":"p%d"`, page+1)
	items := ""
	switch mode {
	case "endlesspages":
		if size, _ := strconv.Atoi(arg); size > 0 {
			items = pageItem(key, page, strings.Repeat("x", size))
		}
	case "slowpages":
		msStr, nStr, _ := strings.Cut(arg, ":")
		ms, _ := strconv.Atoi(msStr)
		n, _ := strconv.Atoi(nStr)
		time.Sleep(time.Duration(ms) * time.Millisecond)
		items = pageItem(key, page, "slow")
		if page+1 >= n {
			next = ""
		}
	}
	return reply{exit: -1, messages: []string{result(req.ID, fmt.Sprintf(`{%q:[%s]%s}`, key, items, next))}}, true
}

// pageItem is one item of a page of key, named after the page.
func pageItem(key string, page int, description string) string {
	switch key {
	case "tools":
		return fmt.Sprintf(`{"name":"t%d","description":%q,"inputSchema":{"type":"object"}}`, page, description)
	case "resources":
		return fmt.Sprintf(`{"uri":"fake://r%d","name":"r%d","description":%q}`, page, page, description)
	}
	return fmt.Sprintf(`{"name":"p%d","description":%q}`, page, description)
}
