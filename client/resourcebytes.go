package client

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
)

// ResourceBytes returns the decoded content of the item for uri in a
// resources/read result (the only item when none names uri).
func ResourceBytes(raw json.RawMessage, uri string) ([]byte, error) {
	var r struct {
		Contents []struct {
			URI  string  `json:"uri"`
			Text *string `json:"text"`
			Blob *string `json:"blob"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Contents) == 0 {
		return nil, &ProtocolError{Msg: "resources/read returned no contents"}
	}
	i := -1
	for j, c := range r.Contents {
		if c.URI == uri {
			i = j
			break
		}
	}
	if i < 0 {
		if len(r.Contents) > 1 {
			return nil, &ProtocolError{Msg: "resources/read of " + uri + " returned no contents for it"}
		}
		i = 0
	}
	switch item := r.Contents[i]; {
	case item.Blob != nil:
		return decodeBase64(*item.Blob, "the resource's blob")
	case item.Text != nil:
		return []byte(*item.Text), nil
	}
	return nil, &ProtocolError{Msg: "the resource has neither text nor blob"}
}

// Binary is one binary item of a tool result's content: an image, an
// audio clip, or an embedded resource's blob.
type Binary struct {
	Index    int    // its place in the result's content, from 0
	Type     string // "image", "audio" or "resource"
	MimeType string // as the server gave it; "" when it gave none
	Data     []byte // decoded
	Base64   string // as sent
}

// BinaryContent returns the binary items of a tool result's content, in
// their order: image and audio items (their data) and embedded resources
// with a blob. Text, links and content of other types are not binary.
func BinaryContent(raw json.RawMessage) ([]Binary, error) {
	var r struct {
		Content []struct {
			Type     string  `json:"type"`
			MimeType string  `json:"mimeType"`
			Data     *string `json:"data"`
			Resource *struct {
				MimeType string  `json:"mimeType"`
				Blob     *string `json:"blob"`
			} `json:"resource"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, &ProtocolError{Msg: "the tool's result is not a CallToolResult: " + err.Error()}
	}
	var out []Binary
	for i, c := range r.Content {
		b := Binary{Index: i, Type: c.Type, MimeType: c.MimeType}
		switch {
		case (c.Type == "image" || c.Type == "audio") && c.Data != nil:
			b.Base64 = *c.Data
		case c.Type == "resource" && c.Resource != nil && c.Resource.Blob != nil:
			b.MimeType, b.Base64 = c.Resource.MimeType, *c.Resource.Blob
		default:
			continue
		}
		data, err := decodeBase64(b.Base64, "content["+strconv.Itoa(i)+"] ("+c.Type+")")
		if err != nil {
			return nil, err
		}
		b.Data = data
		out = append(out, b)
	}
	return out, nil
}

// decodeBase64 decodes binary content as the spec sends it (standard
// base64, padded); what names the content in the error.
func decodeBase64(s, what string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, &ProtocolError{Msg: what + " is not valid base64: " + err.Error()}
	}
	return b, nil
}
