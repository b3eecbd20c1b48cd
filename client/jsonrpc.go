package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/mcpctl/mcpctl/client/ojson"
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

	// wire is the whole message, as the client wrote it (encode), and
	// wireParams the Params it was written with: MarshalJSON returns it
	// while Params is still that, instead of a second copy.
	wire, wireParams []byte
}

// IsNotification reports whether the request expects no response.
func (r *Request) IsNotification() bool { return r.ID == 0 }

// MarshalJSON writes the envelope with a stable key order so traces and
// dry runs read naturally.
func (r *Request) MarshalJSON() ([]byte, error) {
	if r.wire != nil && len(r.Params) == len(r.wireParams) && (len(r.Params) == 0 || &r.Params[0] == &r.wireParams[0]) {
		return r.wire, nil
	}
	return r.envelope(nil), nil
}

// encode writes the message once, with params made of fields when given
// (else Params as it is), and makes Params the part of it that they are.
func (r *Request) encode(fields ojson.Members) {
	r.wire = r.envelope(fields)
	r.wireParams = r.Params
}

// envelope writes the message in a buffer of its final size, plus one
// byte for the newline a stream transport ends it with; with fields, they
// are the params and Params becomes their place in it.
func (r *Request) envelope(fields ojson.Members) []byte {
	m, _ := json.Marshal(r.Method)
	n := len(`{"jsonrpc":"2.0","id":,"method":,"params":}`) + 20 + len(m) + len(r.Params) + 1
	for _, f := range fields {
		n += len(f.Key) + 4 + max(len(f.Value), 4)
	}
	b := bytes.NewBuffer(make([]byte, 0, n))
	b.WriteString(`{"jsonrpc":"2.0",`)
	if r.ID != 0 {
		b.WriteString(`"id":`)
		b.WriteString(strconv.FormatInt(r.ID, 10))
		b.WriteByte(',')
	}
	b.WriteString(`"method":`)
	b.Write(m)
	switch {
	case fields != nil:
		b.WriteString(`,"params":`)
		start := b.Len()
		fields.WriteJSON(b)
		r.Params = b.Bytes()[start:b.Len():b.Len()]
	case len(r.Params) > 0:
		b.WriteString(`,"params":`)
		b.Write(r.Params)
	}
	b.WriteByte('}')
	return b.Bytes()
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
//
// The raw fields (ID, Params, Result, Error.Data) are slices of data, not
// copies: a large result is held once. data must not be reused.
func DecodeMessage(data []byte) (*Message, error) {
	// Only a failure goes the slow way, to be told apart precisely.
	m, err := splitMessage(data)
	if err != nil {
		return nil, decodeError(data)
	}
	if m.Kind() == "invalid" {
		return nil, &ProtocolError{Msg: "server sent a JSON value that is not a JSON-RPC message: " + snippet(data)}
	}
	return m, nil
}

// splitMessage reads a message as json.Unmarshal would into a Message
// (names matched regardless of case, the last of a name twice winning),
// but takes the raw fields where they lie in data: json.Unmarshal copies
// each, which for a large result is that much more memory.
func splitMessage(data []byte) (*Message, error) {
	if !json.Valid(data) { // as json.Unmarshal checks: syntax, trailing data, depth
		return nil, errors.New("invalid JSON")
	}
	fields, err := ojson.SplitObject(data)
	if err != nil {
		return nil, err
	}
	var m Message
	for _, f := range fields {
		var err error
		switch {
		case strings.EqualFold(f.Key, "jsonrpc"):
			err = json.Unmarshal(f.Value, &m.JSONRPC)
		case strings.EqualFold(f.Key, "id"):
			m.ID = f.Value
		case strings.EqualFold(f.Key, "method"):
			err = json.Unmarshal(f.Value, &m.Method)
		case strings.EqualFold(f.Key, "params"):
			m.Params = f.Value
		case strings.EqualFold(f.Key, "result"):
			m.Result = f.Value
		case strings.EqualFold(f.Key, "error"):
			m.Error, err = splitRPCError(f.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	return &m, nil
}

// splitRPCError reads an error object as json.Unmarshal would, its data
// left where it lies; null is no error.
func splitRPCError(raw json.RawMessage) (*RPCError, error) {
	if string(raw) == "null" {
		return nil, nil
	}
	fields, err := ojson.SplitObject(raw)
	if err != nil {
		return nil, err
	}
	e := &RPCError{}
	for _, f := range fields {
		var err error
		switch {
		case strings.EqualFold(f.Key, "code"):
			err = json.Unmarshal(f.Value, &e.Code)
		case strings.EqualFold(f.Key, "message"):
			err = json.Unmarshal(f.Value, &e.Message)
		case strings.EqualFold(f.Key, "data"):
			e.Data = f.Value
		}
		if err != nil {
			return nil, err
		}
	}
	return e, nil
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
