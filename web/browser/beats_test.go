package browser

import "time"

// cues are the reveal's four beats, in order, as the page's class names have
// them (.beat-shout and so on).
var cues = []string{"shout", "flip", "verdict", "take"}

// beatRecorder runs in every page from its start: every 10 ms it looks at
// the reveal's four beats and notes the wall-clock moment each one comes into
// view (shown, taking room, not transparent), with the shout's words to tell
// one reveal from the next. However the page plays the beats (CSS animations
// with delays, classes, timers), what a person sees is what is timed.
const beatRecorder = `(() => {
	const cues = ['shout', 'flip', 'verdict', 'take'];
	const shown = {};
	window.__beats = [];
	const seen = el => {
		if (!el) return false;
		const r = el.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) return false;
		for (let e = el; e; e = e.parentElement) {
			const s = getComputedStyle(e);
			if (s.display === 'none' || s.visibility === 'hidden' || parseFloat(s.opacity) < 0.05) return false;
		}
		return true;
	};
	setInterval(() => {
		const reveal = document.getElementById('reveal');
		for (const cue of cues) {
			const el = reveal && reveal.querySelector('.beat-' + cue);
			const now = seen(el);
			if (now && !shown[cue]) {
				const shout = reveal.querySelector('.beat-shout');
				window.__beats.push({cue: cue, at: Date.now(), shout: shout ? shout.textContent.trim() : ''});
			}
			shown[cue] = now;
		}
	}, 10);
})();`

// beat is one beat coming into view in one page.
type beat struct {
	Cue   string  `json:"cue"`
	At    float64 `json:"at"` // milliseconds since the epoch, the machine's clock
	Shout string  `json:"shout"`
}

// beats is every beat the page has shown so far.
func (b *browser) beats() []beat {
	b.t.Helper()
	return eval[[]beat](b, `window.__beats || []`)
}

// firstBeats is, for the first reveal whose shout is said after from, when
// each of its beats came into view.
func firstBeats(bs []beat, from time.Time) map[string]time.Time {
	at := map[string]time.Time{}
	shout := ""
	for _, x := range bs {
		t := time.UnixMilli(int64(x.At))
		if t.Before(from) {
			continue
		}
		if shout == "" {
			if x.Cue != "shout" {
				continue
			}
			shout = x.Shout
		}
		if x.Shout != shout {
			break
		}
		if _, ok := at[x.Cue]; !ok {
			at[x.Cue] = t
		}
	}
	return at
}
