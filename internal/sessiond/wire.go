package sessiond

// The few JSON-RPC pieces the daemon rewrites or writes itself,
// keeping every other member and its order.

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
)

// progressKey is where a request's _meta carries its progress token.
const progressKey = "progressToken"

// headersKey carries a request's HTTP headers (Mcp-Param-*) in its _meta
// from an invocation to the daemon, which takes it out and sends them as
// headers: the socket has no headers of its own.
const headersKey = "mcpctl.session/headers"

// logLevelKey in a modern request's _meta asks for its log messages.
const logLevelKey = "io.modelcontextprotocol/logLevel"

// rewriteRequest puts the daemon's id in place of the invocation's
// progress token, and reads the protocol version the request declares.
func rewriteRequest(params json.RawMessage, id int64) (out, token json.RawMessage, version string) {
	out = params
	meta := topValue(params, "_meta")
	if meta == nil {
		return out, nil, ""
	}
	if v := topValue(meta, "io.modelcontextprotocol/protocolVersion"); v != nil {
		_ = json.Unmarshal(v, &version)
	}
	if token = topValue(meta, progressKey); token != nil {
		out = setMeta(params, progressKey, json.RawMessage(strconv.FormatInt(id, 10)))
	}
	return out, token, version
}

// putHeaders puts h into params' _meta (headersKey), for the daemon.
func putHeaders(params json.RawMessage, h http.Header) json.RawMessage {
	b, err := json.Marshal(h)
	if err != nil || len(h) == 0 {
		return params
	}
	return setMeta(params, headersKey, b)
}

// takeHeaders takes what putHeaders put back out of params.
func takeHeaders(params json.RawMessage) (json.RawMessage, http.Header) {
	raw := metaValue(params, headersKey)
	if raw == nil {
		return params, nil
	}
	var sent http.Header
	_ = json.Unmarshal(raw, &sent)
	var h http.Header
	for k, v := range sent {
		// Only what the client mirrors from a tool's arguments: the
		// session's own headers (auth among them) are its to set.
		if strings.HasPrefix(http.CanonicalHeaderKey(k), "Mcp-Param-") {
			if h == nil {
				h = http.Header{}
			}
			h[http.CanonicalHeaderKey(k)] = v
		}
	}
	meta, err := ojson.SplitObject(topValue(params, "_meta"))
	if err != nil {
		return params, h
	}
	meta.Delete(headersKey)
	return setTop(params, "_meta", meta.JSON()), h
}

// topValue is obj's member key, or nil.
func topValue(obj json.RawMessage, key string) json.RawMessage {
	fields, err := ojson.SplitObject(obj)
	if err != nil {
		return nil
	}
	return fields.Get(key)
}

func metaValue(params json.RawMessage, key string) json.RawMessage {
	return topValue(topValue(params, "_meta"), key)
}

// setTop sets obj's member key, keeping the others and their order.
func setTop(obj json.RawMessage, key string, v json.RawMessage) json.RawMessage {
	fields, err := ojson.SplitObject(obj)
	if err != nil {
		return obj
	}
	fields.Set(key, v)
	return fields.JSON()
}

func setMeta(params json.RawMessage, key string, v json.RawMessage) json.RawMessage {
	meta := topValue(params, "_meta")
	if meta == nil {
		return params
	}
	return setTop(params, "_meta", setTop(meta, key, v))
}

func responseOf(id, result json.RawMessage) []byte {
	if len(result) == 0 {
		result = json.RawMessage(`{}`)
	}
	return ojson.Members{{Key: "jsonrpc", Value: json.RawMessage(`"2.0"`)}, {Key: "id", Value: id}, {Key: "result", Value: result}}.JSON()
}

func errorOf(id json.RawMessage, e *client.RPCError) []byte {
	b, _ := json.Marshal(e)
	return ojson.Members{{Key: "jsonrpc", Value: json.RawMessage(`"2.0"`)}, {Key: "id", Value: id}, {Key: "error", Value: b}}.JSON()
}

func notificationLine(method string, params json.RawMessage) []byte {
	m := ojson.Members{{Key: "jsonrpc", Value: json.RawMessage(`"2.0"`)}, {Key: "method", Value: ojson.String(method)}}
	if len(params) > 0 {
		m = append(m, ojson.Member{Key: "params", Value: params})
	}
	return m.JSON()
}
