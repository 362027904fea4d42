package browser

import "time"

// cues are the reveal's four beats, in order, as the page's class names have
// them (.beat-shout and so on).
var cues = []string{"shout", "flip", "verdict", "take"}

// beatRecorder runs in every page from its start. Every 10 ms it looks at
// the reveal's four beats and notes, once per reveal, the wall-clock moment
// each is timed to come into view: from its CSS animation where it has one
// (the animation's start plus its delay, in the page's own timeline, so a
// busy main thread doesn't skew the reading), otherwise the moment it was
// first seen shown. A beat's element may hold the animated parts (the flip's
// cards): the earliest of them counts.
const beatRecorder = `(() => {
	const cues = ['shout', 'flip', 'verdict', 'take'];
	const noted = {};
	window.__beats = [];
	const seen = el => {
		const r = el.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) return false;
		for (let e = el; e; e = e.parentElement) {
			const s = getComputedStyle(e);
			if (s.display === 'none' || s.visibility === 'hidden' || parseFloat(s.opacity) < 0.05) return false;
		}
		return true;
	};
	// The beats' own animations (the CSS names them), not others nearby.
	const names = ['appear-up', 'flip', 'stamp', 'appear'];
	const timed = el => {
		const anims = el.getAnimations({subtree: true}).filter(a => names.includes(a.animationName));
		if (anims.length === 0 || anims.some(a => a.startTime === null)) return null;
		return Math.min(...anims.map(a => performance.timeOrigin + a.startTime + a.effect.getTiming().delay));
	};
	setInterval(() => {
		const layer = document.getElementById('reveal');
		const reveal = layer && (layer.querySelector('[id^="reveal-"]') || layer);
		if (!reveal) return;
		const key = reveal.id || '';
		for (const cue of cues) {
			const el = reveal.querySelector('.beat-' + cue);
			if (!el || noted[key + cue]) continue;
			let at = timed(el), how = 'animation';
			if (at === null) {
				if (!seen(el)) continue;
				at = Date.now(); how = 'seen';
			}
			noted[key + cue] = true;
			window.__beats.push({cue: cue, at: at, shout: key, how: how});
		}
	}, 10);
})();`

// beat is one beat coming into view in one page.
type beat struct {
	Cue   string  `json:"cue"`
	At    float64 `json:"at"`    // milliseconds since the epoch, the machine's clock
	Shout string  `json:"shout"` // the reveal's element id, the same in every page
	How   string  `json:"how"`   // "animation" or "seen"
}

// beats is every beat the page has shown so far.
func (b *browser) beats() []beat {
	b.t.Helper()
	return eval[[]beat](b, `window.__beats || []`)
}

// revealBeats is, for each reveal whose shout came after from, when each of
// its beats came into view, by the reveal's key.
func revealBeats(bs []beat, from time.Time) map[string]map[string]time.Time {
	out := map[string]map[string]time.Time{}
	var late []string
	for _, x := range bs {
		t := time.UnixMilli(int64(x.At))
		if x.Cue == "shout" && t.Before(from) {
			late = append(late, x.Shout)
		}
		if out[x.Shout] == nil {
			out[x.Shout] = map[string]time.Time{}
		}
		out[x.Shout][x.Cue] = t
	}
	for _, k := range late {
		delete(out, k)
	}
	return out
}
