package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Request is an outgoing JSON-RPC request or notification (ID zero means
// notification: mcpctl's ids start at 1).
type Request struct {
	ID     int64
	Method string
	Params json.RawMessage

	// Version is the protocol version this request declares in its _meta
	// (modern) or the one negotiated by initialize (legacy); the HTTP
	// transport mirrors it into MCP-Protocol-Version.
	Version string
	// Legacy marks a request of an initialize-based revision: no modern
	// headers, and the HTTP session and server requests of that era.
	Legacy bool
	// Header holds HTTP headers for this request only (Mcp-Param-*);
	// transports without Capabilities.Headers do not send it.
	Header http.Header
}

// IsNotification reports whether the request expects no response.
func (r *Request) IsNotification() bool { return r.ID == 0 }

// MarshalJSON writes the envelope with a stable key order so traces and
// dry runs read naturally.
func (r *Request) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0",`)
	if r.ID != 0 {
		b.WriteString(`"id":`)
		b.WriteString(strconv.FormatInt(r.ID, 10))
		b.WriteByte(',')
	}
	m, _ := json.Marshal(r.Method)
	b.WriteString(`"method":`)
	b.Write(m)
	if len(r.Params) > 0 {
		b.WriteString(`,"params":`)
		b.Write(r.Params)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Message is any incoming JSON-RPC message, kept raw.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// Notification is a server notification, handed to callbacks as received.
type Notification struct {
	Method string
	Params json.RawMessage
	// Raw is the whole message line/event, for renderers that want it.
	Raw json.RawMessage
	// More says further messages were already waiting when this one was
	// handed over: a consumer may hold its output until one comes with
	// More false, and so write a burst at once yet never sit on a line.
	More bool
}

// Kind classifies an incoming message.
func (m *Message) Kind() string {
	switch {
	case m.Method != "" && len(m.ID) == 0:
		return "notification"
	case m.Method != "":
		return "request"
	case len(m.ID) > 0 && (m.Result != nil || m.Error != nil):
		return "response"
	case m.Error != nil:
		return "response" // error without id: malformed request on the server side
	}
	return "invalid"
}

// DecodeMessage parses one wire message. A body that is not a JSON object
// carrying a method, a result or an error is a protocol error.
func DecodeMessage(data []byte) (*Message, error) {
	var m Message
	// Unmarshal reads data in place; a Decoder would first copy it, which
	// for a large message is that much more memory. Only a failure goes
	// the slow way, to be told apart precisely.
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, decodeError(data)
	}
	if m.Kind() == "invalid" {
		return nil, &ProtocolError{Msg: "server sent a JSON value that is not a JSON-RPC message: " + snippet(data)}
	}
	return &m, nil
}

// decodeError says what is wrong with data, which json.Unmarshal refused.
func decodeError(data []byte) error {
	var m Message
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	err := dec.Decode(&m)
	switch {
	case err == nil && len(bytes.TrimSpace(data[dec.InputOffset():])) > 0:
		return &ProtocolError{Msg: "server sent trailing data after a JSON message: " + snippet(data)}
	case err == nil:
		err = errors.New("not a JSON-RPC message") // valid JSON of the wrong shape, such as "id": {}
	case strings.Contains(err.Error(), "exceeded max depth"):
		// encoding/json stops at 10000 levels rather than run deep.
		return &ProtocolError{Msg: "server sent JSON nested more than 10000 levels deep: " + snippet(data)}
	}
	return &ProtocolError{Msg: fmt.Sprintf("server sent invalid JSON: %s: %s", err, snippet(data))}
}

// idEquals compares a raw wire id with ours. Servers must echo the id as
// sent, but a string "7" for our 7 is tolerated: it identifies the request
// unambiguously and rejecting it would help nobody.
func idEquals(raw json.RawMessage, id int64) bool {
	s := string(bytes.TrimSpace(raw))
	want := strconv.FormatInt(id, 10)
	return s == want || s == `"`+want+`"`
}

// snippet shortens untrusted data for inclusion in a one-line error.
func snippet(b []byte) string {
	const max = 120
	s := string(bytes.TrimSpace(b))
	if len(s) > max {
		s = s[:max] + "…"
	}
	return strconv.Quote(s)
}

// responseLine is the JSON-RPC response to a server request with the given
// raw id: the result, or rpcErr when set.
func responseLine(id json.RawMessage, result json.RawMessage, rpcErr *RPCError) []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	if rpcErr != nil {
		e, _ := json.Marshal(rpcErr)
		b.WriteString(`,"error":`)
		b.Write(e)
	} else {
		if len(result) == 0 {
			result = json.RawMessage(`{}`)
		}
		b.WriteString(`,"result":`)
		b.Write(result)
	}
	b.WriteByte('}')
	return b.Bytes()
}
