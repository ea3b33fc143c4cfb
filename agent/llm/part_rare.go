package llm

import "encoding/json"

// PartRare holds the fields of a Part that only images, thinking blocks,
// tool results with images and provider replays set.
type PartRare struct {
	// image: base64 data and its media type ("image/png")
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`

	// thinking: the provider's signature (Anthropic) or redacted payload,
	// replayed unchanged.
	Signature string `json:"signature,omitempty"`
	Redacted  string `json:"redacted,omitempty"`
	// Origin is the model family whose thinking or signature this part
	// carries (OriginAnthropic, OriginOpenAI, OriginGoogle): another
	// family's server cannot read it, and rejects a signature it did not
	// make, so each wire replays only its own (and, for the families that
	// had them before Origin was recorded, parts with none).
	Origin string `json:"origin,omitempty"`

	// Images attached to a tool result (MCP tools can return them).
	Images []Part `json:"images,omitempty"`

	// Extra holds provider-specific fields that must be replayed verbatim,
	// keyed by field name (e.g. OpenAI-compatible "reasoning_content").
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
}

// These read p's rare fields; a part without them reads as zero values.
func (p Part) MediaType() string { return p.rare().MediaType }
func (p Part) Data() string      { return p.rare().Data }
func (p Part) Signature() string { return p.rare().Signature }
func (p Part) Redacted() string  { return p.rare().Redacted }
func (p Part) Origin() string    { return p.rare().Origin }
func (p Part) Images() []Part    { return p.rare().Images }

// Extra returns p's replayed provider fields; nil when it has none.
func (p Part) Extra() map[string]json.RawMessage { return p.rare().Extra }

func (p *Part) rare() PartRare {
	if p.PartRare == nil {
		return PartRare{}
	}
	return *p.PartRare
}

// empty reports whether r sets nothing.
func (r *PartRare) empty() bool {
	return r.MediaType == "" && r.Data == "" && r.Signature == "" && r.Redacted == "" && r.Origin == "" && len(r.Images) == 0 && len(r.Extra) == 0
}

// Rare returns p's rare fields for writing, made first when p has none.
// They are shared with the copies of p made before: a caller changing
// one copy alone gives it its own first (see WithoutImages).
func (p *Part) Rare() *PartRare {
	if p.PartRare == nil {
		p.PartRare = new(PartRare)
	}
	return p.PartRare
}

// WithoutImages returns p with no images attached, leaving any copy of p
// that shares its rare fields as it was.
func (p Part) WithoutImages() Part {
	if p.PartRare == nil || p.PartRare.Images == nil {
		return p
	}
	r := *p.PartRare
	r.Images = nil
	p.PartRare = &r
	if r.empty() {
		p.PartRare = nil
	}
	return p
}

// The model families of Part.Origin.
const (
	OriginAnthropic = "anthropic"
	OriginOpenAI    = "openai"
	OriginGoogle    = "google"
)

// Image returns an image part.
func Image(mediaType, data string) Part {
	return Part{Type: PartImage, PartRare: &PartRare{MediaType: mediaType, Data: data}}
}
