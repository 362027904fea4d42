// The little the table needs beyond htmx: a push must never cost the player
// what they are doing (the cards picked, the sneak switch, focus, scroll), the
// sneak switch and the sort, the keys, the first-game tips and the clock said
// aloud at two seconds. Every rule and every hint is the server's.
(function () {
  'use strict';
  var applied = null; // the pick key whose picks were last applied
  var said = {}; // clock bars whose two-second warning is set
  var lags = []; // recent events' delays on the way, ms: arrival less rendering
  var late = 0; // how much later than usual the event being applied came, ms
  var started = {}; // timed elements already set going, by id
  var store = window.localStorage || { getItem: function () { return null; }, setItem: function () {} };

  // A morph copies attributes from the new HTML: keep the player's own.
  function keepAttribute(attr, el) {
    if (attr === 'checked' && el.name === 'card') return true;
    if (el.hasAttribute('data-keep') && (attr === 'value' || attr === 'aria-pressed')) return true;
    // An animation timed from the render keeps the times it started with.
    if (attr === 'style' && el.hasAttribute('data-keep-anim') && el.getAttribute('style')) return true;
    if (attr === 'hidden' && el.classList.contains('teach')) return true;
    if (attr === 'value' && el.id === 'share-link') return true;
    return false;
  }

  function $(sel) { return document.querySelector(sel); }

  function sneakInput() { var h = $('#hand'); return h && h.querySelector('input[name=sneak]'); }

  function showSneak() {
    var b = $('#sneak'), i = sneakInput();
    if (!b || !i) return;
    var n = parseInt(i.value, 10) || 0;
    b.querySelector('.sneak-value').textContent = '+' + n;
    b.setAttribute('aria-pressed', n > 0 ? 'true' : 'false');
    b.setAttribute('aria-label', 'Sneak ' + n + ' under the claim');
  }

  function askHint() {
    var h = $('#hand');
    if (h && h.classList.contains('selectable') && window.htmx) htmx.trigger(h, 'change');
  }

  // timeEvent notes how late a frame event comes. Its id is its revision
  // and, after a dot, when it was rendered: the least recent delay stands
  // for the clocks' offset and the usual delay, the rest is lateness.
  function timeEvent(e) {
    var at = parseFloat(String(e.detail && e.detail.lastEventId || '').split('.')[1]);
    late = 0;
    if (!(at > 0)) return;
    lags.push(Date.now() - at);
    if (lags.length > 20) lags.shift();
    late = lags[lags.length - 1] - Math.min.apply(null, lags);
  }

  // catchUp starts a newly arrived event's animations (the reveal's beats,
  // the clock, the sweep) as far on as the event came late, so every page
  // plays a reveal at the same moment whatever its own delays.
  function catchUp() {
    document.querySelectorAll('[data-keep-anim]').forEach(function (el) {
      if (!el.id || started[el.id]) return;
      started[el.id] = true;
      if (late > 0 && el.getAnimations) {
        el.getAnimations({ subtree: true }).forEach(function (a) { a.currentTime = (a.currentTime || 0) + late; });
      }
    });
  }

  // sync brings the page's own state into line after a load or a swap.
  function sync() {
    catchUp();
    var h = $('#hand');
    if (h) {
      var key = h.getAttribute('data-pick-key') || '';
      if (key !== applied) {
        applied = key;
        var pick = key !== '' && document.documentElement.classList.contains('assist-pick');
        h.querySelectorAll('input[name=card]').forEach(function (i) { i.checked = pick && i.hasAttribute('data-pick'); });
        var s = sneakInput();
        if (s) s.value = '0';
        if (key !== '') askHint();
      } else {
        var claim = $('#claim');
        var mine = h.querySelector('input[name=card]:checked') || (sneakInput() && sneakInput().value !== '0');
        if (claim && mine && !claim.hasAttribute('data-hint')) askHint();
      }
    }
    showSneak();
    document.querySelectorAll('.teach[data-teach]').forEach(function (t) {
      t.hidden = !!store.getItem('teach-' + t.getAttribute('data-teach'));
    });
    var link = $('#share-link');
    if (link && link.value.charAt(0) === '/') link.value = location.origin + link.value;
    document.querySelectorAll('.clock-bar[data-say-at]').forEach(function (bar) {
      var at = parseFloat(bar.getAttribute('data-say-at'));
      if (said[bar.id] || !(at >= 0)) return;
      said[bar.id] = true;
      setTimeout(function () {
        if (document.getElementById(bar.id)) $('#say').textContent = 'Two seconds';
      }, at * 1000);
    });
  }

  function taught(kind) {
    store.setItem('teach-' + kind, '1');
    document.querySelectorAll('.teach[data-teach="' + kind + '"]').forEach(function (t) { t.hidden = true; });
  }

  function sortHand() {
    var on = document.documentElement.classList.toggle('by-suit');
    store.setItem('sort', on ? 'suit' : 'rank');
  }

  function cycleSneak() {
    var b = $('#sneak'), i = sneakInput();
    if (!b || !i || b.disabled) return;
    var max = parseInt(b.getAttribute('data-max'), 10) || 0;
    i.value = String(((parseInt(i.value, 10) || 0) + 1) % (max + 1));
    showSneak();
    askHint();
  }

  document.addEventListener('click', function (e) {
    var t = e.target.closest('button');
    if (!t) return;
    if (t.id === 'sneak') cycleSneak();
    else if (t.id === 'sort') sortHand();
    else if (t.id === 'claim') taught('claim');
    else if (t.id === 'give') taught('give');
    else if (t.hasAttribute('data-teach-close')) taught(t.closest('.teach').getAttribute('data-teach'));
    else if (t.hasAttribute('data-copy')) {
      var src = $(t.getAttribute('data-copy'));
      if (src && navigator.clipboard) navigator.clipboard.writeText(src.value).then(function () { t.textContent = 'Copied'; });
    }
  });

  // Single keys, shown on the buttons: C, S, B, G, O.
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    var tag = e.target.tagName;
    if (tag === 'TEXTAREA' || tag === 'SELECT' || (tag === 'INPUT' && e.target.type !== 'checkbox')) return;
    var k = e.key.length === 1 ? e.key.toUpperCase() : '';
    if (!k) return;
    var b = document.querySelector('#dock [data-key="' + k + '"]');
    if (!b || b.disabled) return;
    e.preventDefault();
    b.click();
  });

  document.addEventListener('htmx:load', sync);
  document.addEventListener('htmx:afterSettle', sync);
  document.addEventListener('htmx:oobAfterSwap', sync);
  document.addEventListener('htmx:sseBeforeMessage', timeEvent);
  document.addEventListener('htmx:sseMessage', function () { sync(); late = 0; });
  document.addEventListener('DOMContentLoaded', function () {
    if (store.getItem('sort') === 'suit') document.documentElement.classList.add('by-suit');
    if (window.Idiomorph) {
      Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (attr, el) {
        return keepAttribute(attr, el) ? false : undefined;
      };
    }
    sync();
  });
})();
