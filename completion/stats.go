package completion

// Stats counts what an engine did, for tests, benchmarks and doctor.
type Stats struct {
	Requests    int // model requests started
	CacheHits   int // answered by narrowing a cached suggestion
	Joined      int // answered by the request in flight for an earlier keystroke
	InFlight    int // model requests running now
	MaxInFlight int // the most ever running at once
	Documents   int // documents with state
	Bytes       int // what the documents' caches hold, about
}

// Stats returns the engine's counters.
func (e *Engine) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.stats
	s.Documents = len(e.docs)
	for _, st := range e.docs {
		s.Bytes += st.cache.size() + 64
	}
	return s
}
