package client

// lineBuffer collects a line read in pieces and joins it once at the end.
// Appending to one slice instead would reallocate it dozens of times on
// the way to a large message (Go grows big slices by a quarter), leaving
// a trail of copies for the garbage collector several times the message's
// size; the fault suite's memory bound for a 64 MiB message relies on
// this.
type lineBuffer struct {
	pieces [][]byte
	n      int
}

// add copies p, which the caller may reuse.
func (b *lineBuffer) add(p []byte) {
	if len(p) == 0 {
		return
	}
	b.pieces = append(b.pieces, append([]byte(nil), p...))
	b.n += len(p)
}

func (b *lineBuffer) len() int { return b.n }

// bytes returns the line; nil when nothing was added.
func (b *lineBuffer) bytes() []byte {
	switch len(b.pieces) {
	case 0:
		return nil
	case 1:
		return b.pieces[0]
	}
	out := make([]byte, 0, b.n)
	for _, p := range b.pieces {
		out = append(out, p...)
	}
	return out
}
