package client

import (
	"encoding/base64"
	"encoding/json"
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
		b, err := base64.StdEncoding.DecodeString(*item.Blob)
		if err != nil {
			return nil, &ProtocolError{Msg: "the resource's blob is not valid base64: " + err.Error()}
		}
		return b, nil
	case item.Text != nil:
		return []byte(*item.Text), nil
	}
	return nil, &ProtocolError{Msg: "the resource has neither text nor blob"}
}
