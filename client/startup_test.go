package client

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
)

// startupRootsServer plays a legacy server on conn that asks for roots as
// soon as it reads notifications/initialized, takes them when it reads
// the answer, and answers tools/call with the roots it knew when it read
// the call. It reports every method it read, in order, on got.
func startupRootsServer(conn net.Conn, got chan<- []string) {
	defer conn.Close()
	var methods []string
	defer func() { got <- methods }()
	known := "none"
	in := bufio.NewScanner(conn)
	write := func(s string) bool {
		_, err := conn.Write([]byte(s + "\n"))
		return err == nil
	}
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result struct {
				Roots []struct {
					URI string `json:"uri"`
				} `json:"roots"`
			} `json:"result"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil {
			return
		}
		if m.Method == "" {
			methods = append(methods, "answer "+string(m.ID))
			if string(m.ID) == `"roots"` && len(m.Result.Roots) > 0 {
				known = m.Result.Roots[0].URI
			}
			continue
		}
		methods = append(methods, m.Method)
		reply := func(res string) bool {
			return write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + res + `}`)
		}
		ok := true
		switch m.Method {
		case "initialize":
			ok = reply(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"roots","version":"1"}}`)
		case "notifications/initialized":
			ok = write(`{"jsonrpc":"2.0","id":"roots","method":"roots/list"}`)
		case "ping":
			ok = reply(`{}`)
		case "tools/call":
			b, _ := json.Marshal(known)
			ok = reply(`{"content":[{"type":"text","text":` + string(b) + `}]}`)
		}
		if !ok {
			return
		}
	}
}

// A legacy server offered roots asks for them once initialized; the
// client's first request goes only after its answer, and after a ping the
// server answered once it had read that answer. Over net.Pipe, whose
// writes wait for the reader, the request was first before: written while
// the question was on its way, the answer after it.
func TestStartupQuestionsAnsweredBeforeTheFirstRequest(t *testing.T) {
	t.Parallel()
	cs, ss := net.Pipe()
	got := make(chan []string, 1)
	go startupRootsServer(ss, got)
	roots := answerFunc(func(_ context.Context, r InputRound) (map[string]json.RawMessage, error) {
		return map[string]json.RawMessage{r.Requests[0].Key: json.RawMessage(`{"roots":[{"uri":"file:///srv/a"}]}`)}, nil
	})
	c := New(NewConn(cs, ConnOptions{}), Options{ProtocolVersion: "2025-11-25", Capabilities: json.RawMessage(`{"roots":{}}`), Input: roots})
	res, err := c.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"known_roots"}`), nil)
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res), `"file:///srv/a"`) {
		t.Errorf("the server knew no roots when it read the call: %s", res)
	}
	// The order of the answer and the first ping depends on which the
	// client wrote first; a ping after the answer, before the call, does
	// not.
	m := strings.Join(<-got, " ")
	answer := strings.Index(m, `answer "roots"`)
	if answer < 0 || !strings.Contains(m[answer:], " ping ") || !strings.HasSuffix(m, " ping tools/call") {
		t.Errorf("the server read %s; want the answer, then a ping, then the call", m)
	}
}

// Without roots offered nothing waits: no ping.
func TestNoStartupPingWithoutRoots(t *testing.T) {
	t.Parallel()
	cs, ss := net.Pipe()
	got := make(chan []string, 1)
	go startupRootsServer(ss, got)
	c := New(NewConn(cs, ConnOptions{}), Options{ProtocolVersion: "2025-11-25", Capabilities: json.RawMessage(`{}`)})
	_, err := c.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"known_roots"}`), nil)
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	if m := strings.Join(<-got, " "); strings.Contains(m, "ping") {
		t.Errorf("the server read %s; want no ping", m)
	}
}
