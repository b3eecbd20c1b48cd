package main

import (
	"bytes"
	"image/color"
	"image/png"
	"testing"
)

// The logo is a real PNG of the 16x16 diagonal: blue on and above it,
// white below.
func TestLogoPNG(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(logoPNG))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 16 || b.Dy() != 16 {
		t.Fatalf("bounds %v", b)
	}
	blue := color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0xff}
	white := color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	for y := range 16 {
		for x := range 16 {
			want := white
			if x >= y {
				want = blue
			}
			if got := color.NRGBAModel.Convert(img.At(x, y)); got != want {
				t.Fatalf("pixel %d,%d is %v, want %v", x, y, got, want)
			}
		}
	}
	if len(logoPNG) != 147 {
		t.Errorf("%d bytes; the CLI scripts expect 147", len(logoPNG))
	}
}
