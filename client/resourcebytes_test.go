package client

import (
	"errors"
	"strings"
	"testing"
)

func TestBinaryContent(t *testing.T) {
	raw := `{"content":[` +
		`{"type":"text","text":"aGVsbG8="},` +
		`{"type":"image","mimeType":"image/png","data":"iVBORw=="},` +
		`{"type":"resource_link","uri":"file:///x","name":"x"},` +
		`{"type":"resource","resource":{"uri":"file:///t","text":"aGk="}},` +
		`{"type":"resource","resource":{"uri":"../../x","mimeType":"application/x-unknown","blob":"AAEC"}},` +
		`{"type":"audio","data":"UklGRg=="},` +
		`{"type":"hologram","data":"AAAA"}],"structuredContent":{"x":1}}`
	got, err := BinaryContent([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := []Binary{
		{Index: 1, Type: "image", MimeType: "image/png", Data: []byte("\x89PNG"), Base64: "iVBORw=="},
		{Index: 4, Type: "resource", MimeType: "application/x-unknown", Data: []byte{0, 1, 2}, Base64: "AAEC"},
		{Index: 5, Type: "audio", Data: []byte("RIFF"), Base64: "UklGRg=="},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d items, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Index != w.Index || g.Type != w.Type || g.MimeType != w.MimeType || string(g.Data) != string(w.Data) || g.Base64 != w.Base64 {
			t.Errorf("item %d: got %+v, want %+v", i, g, w)
		}
	}
	if got, err := BinaryContent([]byte(`{"content":[{"type":"text","text":"only"}]}`)); err != nil || len(got) != 0 {
		t.Errorf("text only: %v, %v; want none", got, err)
	}
	_, err = BinaryContent([]byte(`{"content":[{"type":"text","text":"x"},{"type":"image","mimeType":"image/png","data":"not base64!"}]}`))
	var pe *ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "content[1] (image) is not valid base64") {
		t.Errorf("bad base64: %v, want a ProtocolError naming content[1]", err)
	}
}
