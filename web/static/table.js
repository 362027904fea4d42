// The little the table needs beyond htmx: a push must never cost the player
// what they are doing (the cards picked, the sneak switch, focus, scroll), the
// sneak switch and the sort, the keys, the first-game tips, the clock said
// aloud at two seconds, the stream's planned ends and outages, and telling a
// player whose tab is hidden that a move waits. Every rule and every hint is
// the server's.
(function () {
  'use strict';
  var applied = null; // the pick key whose picks were last applied
  var said = {}; // clock bars whose two-second warning is set, lines said
  var lags = []; // recent events' delays on the way, ms: arrival less rendering
  var late = 0; // how much later than usual the event being applied came, ms
  var started = {}; // timed elements already set going, by id
  var hinting = false, hintAgain = false; // a hint asked and not answered; asked again meanwhile
  var focusKept = null; // where in the hand or the dock the focus last was
  var store = window.localStorage || { getItem: function () { return null; }, setItem: function () {} };

  function $(sel) { return document.querySelector(sel); }

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

  // The claim button's words are the hint's answer for the cards picked: a
  // push of the same play leaves them be, so they need no asking again. The
  // next answer (marked data-hint too) always replaces them.
  function keepNode(old, fresh) {
    return old.id === 'claim' && old.hasAttribute('data-hint') && fresh.nodeType === 1 &&
      !fresh.hasAttribute('data-hint') && !fresh.hasAttribute('disabled') &&
      fresh.getAttribute('hx-vals') === old.getAttribute('hx-vals');
  }

  function sneakInput() { var h = $('#hand'); return h && h.querySelector('input[name=sneak]'); }

  function showSneak() {
    var b = $('#sneak'), i = sneakInput();
    if (!b || !i) return;
    var n = parseInt(i.value, 10) || 0;
    b.querySelector('.sneak-value').textContent = '+' + n;
    b.setAttribute('aria-pressed', n > 0 ? 'true' : 'false');
    b.setAttribute('aria-label', 'Sneak ' + n + ' under the claim');
  }

  // askHint asks the server for the status line and the claim's words. One
  // is asked at a time: asking again while one is out (the player changed
  // something meanwhile) asks once more when it is answered; a push that
  // merely finds the words missing waits for the answer on its way.
  function askHint(changed) {
    var h = $('#hand');
    if (!h || !h.classList.contains('selectable') || !window.htmx) return;
    if (hinting) {
      if (changed) hintAgain = true;
      return;
    }
    hinting = true;
    htmx.trigger(h, 'change');
  }

  // A hint answered after the turn moved on has no claim button to put
  // its words on: it is dropped.
  function hintArrives(e) {
    var d = e.detail || {};
    var path = (d.requestConfig && d.requestConfig.path) || (d.pathInfo && d.pathInfo.requestPath) || '';
    var claim = $('#claim');
    if (path.indexOf('/hint') >= 0 && (!claim || claim.disabled)) d.shouldSwap = false;
  }

  function hintAnswered(e) {
    var d = e.detail || {};
    var path = (d.requestConfig && d.requestConfig.path) || (d.pathInfo && d.pathInfo.requestPath) || '';
    if (path.indexOf('/hint') < 0) return;
    hinting = false;
    if (hintAgain) {
      hintAgain = false;
      askHint(true);
    }
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

  // pushed is the revision of the last frame the stream brought, the first
  // number of its id. A move's answer that shows an older frame (its header
  // says which) came after a newer push and is dropped: swapped in, it would
  // stand until the next push, which may never come (a turn that waits for
  // this player). The latest push counts, not the highest: a table taken
  // over by another node counts its revisions afresh.
  var pushed = -1;
  function notePush(e) {
    var rev = parseInt(String(e.detail && e.detail.lastEventId || ''), 10);
    if (rev >= 0) pushed = rev;
  }
  function staleAnswer(e) {
    var d = e.detail || {};
    var rev = d.xhr ? parseInt(d.xhr.getResponseHeader('X-Frame-Revision'), 10) : NaN;
    if (rev >= 0 && rev < pushed) d.shouldSwap = false;
  }
  // checkAnswer has a request's element check its answer. The check listens
  // on the element itself: htmx fires beforeSwap there, and the push the
  // answer lost to has often replaced it (the window's buttons go at the
  // turn), so the event no longer reaches the document.
  var checked = new WeakSet();
  function checkAnswer(e) {
    var el = e.detail && e.detail.elt;
    if (!el || checked.has(el)) return;
    checked.add(el);
    el.addEventListener('htmx:beforeSwap', staleAnswer);
  }

  // catchUp starts a newly arrived event's animations (the reveal's beats,
  // the clock, the sweep) as far on as the event came late, so every page
  // plays a reveal at the same moment whatever its own delays.
  function catchUp() {
    var now = document.timeline && document.timeline.currentTime;
    document.querySelectorAll('[data-keep-anim]').forEach(function (el) {
      if (!el.id || started[el.id]) return;
      started[el.id] = true;
      // Pinned to now, not to whenever a busy page first paints them.
      if (now != null && el.getAnimations) {
        el.getAnimations({ subtree: true }).forEach(function (a) { a.startTime = now - late; });
      }
    });
  }

  // sortCards puts the hand's cards in the order shown, by rank or by suit,
  // in the document itself, so the Tab order is the order seen.
  function sortCards() {
    var box = $('#hand .cards');
    if (!box) return;
    var key = document.documentElement.classList.contains('by-suit') ? 'data-suit-order' : 'data-rank-order';
    var cards = Array.prototype.slice.call(box.children);
    var order = function (el) { return parseInt(el.getAttribute(key), 10) || 0; };
    var sorted = cards.slice().sort(function (a, b) { return order(a) - order(b); });
    if (sorted.every(function (el, i) { return el === cards[i]; })) return;
    // moveBefore keeps a moved card's focus where the browser has it.
    var move = box.moveBefore ? box.moveBefore.bind(box) : box.insertBefore.bind(box);
    sorted.forEach(function (el) { move(el, null); });
  }

  // noteFocus remembers where in the hand or the dock the focus last was
  // (and forgets it when the person moves elsewhere); keepFocus puts it back
  // near there when a swap took it away (the card was played, the button
  // went): never to the page's top.
  function noteFocus(e) {
    var a = e.target;
    var region = a && a.closest && a.closest('#hand, #dock');
    if (!region) { focusKept = null; return; }
    // The region itself holds the focus only while keepFocus has nothing
    // in it to press: the place remembered stays.
    if (a === region) return;
    var list = focusables(region);
    focusKept = { region: region.id, index: list.indexOf(a), value: a.value || '', id: a.id };
  }

  function focusables(region) {
    return Array.prototype.slice.call(region.querySelectorAll('input[name=card]:not([disabled]), button:not([disabled])'));
  }

  // A card or button the swap disabled still names itself the active
  // element until the browser drops the focus to the page, so it counts as
  // lost; so does the region holding the focus in its stead.
  function keepFocus() {
    var k = focusKept;
    var a = document.activeElement;
    var lost = !a || a === document.body || a.disabled || !a.isConnected || a.id === (k && k.region);
    if (!k || !lost) return;
    var region = document.getElementById(k.region);
    if (!region) return;
    var same = (k.id && document.getElementById(k.id)) ||
      region.querySelector('input[name=card][value="' + k.value + '"]');
    if (same && !same.disabled && region.contains(same)) { same.focus(); return; }
    var list = focusables(region);
    var next = list[Math.min(Math.max(k.index, 0), list.length - 1)];
    if (next) { next.focus(); return; }
    // Nothing to press there now: the region itself (it takes the focus,
    // not Tab's), so Tab goes on from it.
    region.focus({ preventScroll: true });
  }

  // sayAt announces the lines the server times (the pile you take, once the
  // sweep lands), each once.
  function sayAt() {
    document.querySelectorAll('[data-say-key]').forEach(function (el) {
      var key = el.getAttribute('data-say-key');
      if (said[key]) return;
      said[key] = true;
      var text = el.getAttribute('data-say');
      var at = (parseFloat(el.getAttribute('data-say-at')) || 0) * 1000 - late;
      setTimeout(function () {
        toast('#notice', text, 5000);
        $('#notice').setAttribute('data-key', key);
      }, Math.max(0, at));
    });
  }

  // overMiddle puts the connection's line at the foot of the table's middle,
  // below the claim, where it covers neither the play number nor a seat nor
  // a card; without the middle in sight (the waiting room, scrolled away),
  // at the screen's top.
  function overMiddle(el) {
    var m = $('#middle');
    var r = m && m.getBoundingClientRect();
    el.style.top = '';
    if (!r || r.bottom <= 0 || r.bottom > innerHeight) return;
    el.hidden = false;
    el.style.top = Math.max(4, r.bottom - el.offsetHeight - 8) + 'px';
  }

  // The game's result sheet says how it ended: a line about the play before
  // it, due meanwhile, would only cover its buttons.
  var toastTimers = {};
  function toast(sel, text, keep) {
    var el = $(sel);
    if (!el || (sel === '#notice' && $('#result'))) return;
    el.textContent = text;
    el.hidden = false;
    if (sel === '#connection') overMiddle(el);
    clearTimeout(toastTimers[sel]);
    if (keep > 0) toastTimers[sel] = setTimeout(function () { el.hidden = true; el.textContent = ''; }, keep);
  }

  // sync brings the page's own state into line after a load or a swap.
  function sync() {
    catchUp();
    if ($('#result') && $('#notice')) $('#notice').hidden = true;
    sortCards();
    keepFocus();
    var h = $('#hand');
    if (h) {
      var key = h.getAttribute('data-pick-key') || '';
      if (key !== applied) {
        applied = key;
        var pick = key !== '' && document.documentElement.classList.contains('assist-pick');
        h.querySelectorAll('input[name=card]').forEach(function (i) { i.checked = pick && i.hasAttribute('data-pick'); });
        var s = sneakInput();
        if (s) s.value = '0';
        if (key !== '') askHint(true);
      } else {
        var claim = $('#claim');
        var mine = h.querySelector('input[name=card]:checked') || (sneakInput() && sneakInput().value !== '0');
        if (claim && mine && !claim.hasAttribute('data-hint')) askHint(false);
      }
    }
    showSneak();
    sayAt();
    keepTitle();
    refusedNotify();
    alertMove();
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

  // The stream. The server ends it by plan with an "end" event: "again"
  // when the game starts (the seat's number may change: follow it afresh),
  // "over" when there is nothing more to come. Any other end is an outage:
  // the page says so until the stream is back.
  var down = false, source = null;
  function streamOpened(e) {
    var src = source = e.detail && e.detail.source;
    if (src && !src.__ends) {
      src.__ends = true;
      src.addEventListener('end', function (m) {
        src.close();
        if (m.data === 'again') follow();
      });
    }
    if (down) {
      down = false;
      toast('#connection', 'Connected again.', 3000);
    }
  }

  function streamFailed() {
    down = true;
    toast('#connection', 'Reconnecting…', 0);
  }

  // The page's stream says its own trouble and finds its own way back,
  // rather than through the SSE extension's error, which htmx writes to the
  // console ("[object Event]") on every drop. A stream the browser is
  // retrying by itself is left to it; one it gave up (refused while the
  // server restarts) is opened anew, waiting longer each time.
  var current = null, retries = 0;
  if (window.htmx) htmx.createEventSource = function (url) {
    var es = current = new EventSource(url, { withCredentials: true });
    Object.defineProperty(es, 'onerror', { configurable: true, get: function () { return null; }, set: function () {} });
    es.addEventListener('error', function () {
      if (es !== current || !$('#live[sse-connect]')) { es.close(); return; }
      streamFailed();
      if (es.readyState !== EventSource.CLOSED) return;
      retries = Math.min(retries * 2 || 1, 16);
      setTimeout(function () { if (es === current) follow(); }, retries * 500);
    });
    es.addEventListener('open', function () { retries = 0; });
    return es;
  };

  // follow opens the page's stream anew on a fresh element.
  function follow() {
    var live = $('#live');
    if (!live || !window.htmx) return;
    var fresh = live.cloneNode(false);
    live.parentNode.replaceChild(fresh, live);
    htmx.process(fresh);
  }

  // Telling a player whose tab is hidden that a move waits: the title, a
  // short sound made here, a vibration, a notification, each as Options
  // says (classes on <html>), once per move.
  var alerted = '', title = null, note = null, audio = null;
  function alertMove() {
    var d = $('#dock');
    var key = (d && d.getAttribute('data-alert-key')) || '';
    if (key === alerted) return;
    alerted = key;
    if (key === '') { calm(); return; }
    if (!document.hidden) return;
    var on = document.documentElement.classList, head = d.getAttribute('data-alert'), body = d.getAttribute('data-alert-body');
    if (on.contains('alert-title')) {
      if (title === null) title = document.title;
      document.title = head + ' · ' + title;
    }
    if (on.contains('alert-sound')) chime();
    if (on.contains('alert-vibrate') && navigator.vibrate) navigator.vibrate([120, 80, 120]);
    if (on.contains('alert-notify') && window.Notification && Notification.permission === 'granted') {
      try {
        var icon = $('link[rel=icon][type="image/svg+xml"]');
        note = new Notification(head, { body: body, tag: 'bullshit-move', icon: icon ? icon.href : undefined });
        note.onclick = function () { window.focus(); calm(); };
      } catch (err) {
        note = null; // a phone's browser shows notifications from a service worker only
      }
    }
  }

  // keepTitle takes the page's title from the pushed bar, which names the
  // table from the first frame of play, keeping a move's alert before it.
  function keepTitle() {
    var bar = $('#bar'), want = bar && bar.getAttribute('data-title');
    if (!want) return;
    if (title === null) {
      if (document.title !== want) document.title = want;
    } else if (title !== want) {
      document.title = document.title.slice(0, document.title.length - title.length) + want;
      title = want;
    }
  }

  function calm() {
    if (title !== null) { document.title = title; title = null; }
    if (note) { note.close(); note = null; }
  }

  function chime() {
    var A = window.AudioContext || window.webkitAudioContext;
    if (!A) return;
    if (!audio) audio = new A();
    if (audio.state === 'suspended' && audio.resume) audio.resume();
    var t = audio.currentTime;
    [[0, 660], [0.16, 880]].forEach(function (n) {
      var o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = n[1];
      g.gain.setValueAtTime(0.0001, t + n[0]);
      g.gain.exponentialRampToValueAtTime(0.2, t + n[0] + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t + n[0] + 0.14);
      o.connect(g);
      g.connect(audio.destination);
      o.start(t + n[0]);
      o.stop(t + n[0] + 0.15);
    });
  }

  // A browser lets a page make sound only after a gesture: the first one
  // readies the audio for the hidden moment to come.
  function readyAudio() {
    var A = window.AudioContext || window.webkitAudioContext;
    if (!A || audio || !document.documentElement.classList.contains('alert-sound')) return;
    audio = new A();
  }

  function taught(kind) {
    store.setItem('teach-' + kind, '1');
    document.querySelectorAll('.teach[data-teach="' + kind + '"]').forEach(function (t) { t.hidden = true; });
  }

  function sortHand() {
    var on = document.documentElement.classList.toggle('by-suit');
    store.setItem('sort', on ? 'suit' : 'rank');
    sortCards();
  }

  function cycleSneak() {
    var b = $('#sneak'), i = sneakInput();
    if (!b || !i || b.disabled) return;
    var max = parseInt(b.getAttribute('data-max'), 10) || 0;
    i.value = String(((parseInt(i.value, 10) || 0) + 1) % (max + 1));
    showSneak();
    askHint(true);
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

  // Notifications are on by default, but only a person's own gesture may ask
  // the browser's leave: the first tap or key on a page where they are on
  // asks it (the notify switch's own click asks below, if it turns it on).
  var askedNotify = false;
  function askNotify(e) {
    if (askedNotify || (e.target && e.target.name === 'notify')) return;
    if (!document.documentElement.classList.contains('alert-notify') || !window.Notification || Notification.permission !== 'default') return;
    askedNotify = true;
    askPermission();
  }

  // askPermission asks the browser's leave to notify (older browsers
  // answer by callback, newer by promise), then shows a refusal.
  function askPermission() {
    var asked = Notification.requestPermission(refusedNotify);
    if (asked && asked.then) asked.then(refusedNotify);
  }

  // refusedNotify shows the notify switch off where the browser refuses
  // this site notifications, since none could be shown.
  function refusedNotify() {
    var s = $('input[name=notify]');
    if (!s || !window.Notification || Notification.permission !== 'denied') return;
    s.checked = false;
    var hint = s.parentNode.querySelector('.hint');
    if (hint) hint.textContent = 'This browser refuses this site notifications: allow them in its settings for this site first.';
  }

  // Turning notifications on in Options asks the browser's leave, as only a
  // person's own click may.
  document.addEventListener('change', function (e) {
    var t = e.target;
    if (t.name === 'notify' && t.checked && window.Notification) {
      if (Notification.permission === 'default') askPermission();
      refusedNotify();
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

  document.addEventListener('pointerdown', readyAudio, true);
  document.addEventListener('pointerdown', askNotify, true);
  document.addEventListener('keydown', askNotify, true);
  document.addEventListener('keydown', readyAudio, true);
  document.addEventListener('visibilitychange', function () { if (!document.hidden) calm(); });
  document.addEventListener('htmx:load', sync);
  document.addEventListener('focusin', noteFocus);
  document.addEventListener('pointerdown', function (e) { if (!e.target.closest('#hand, #dock')) focusKept = null; }, true);
  document.addEventListener('htmx:beforeSwap', hintArrives);
  document.addEventListener('htmx:beforeRequest', checkAnswer);
  document.addEventListener('htmx:afterSettle', sync);
  document.addEventListener('htmx:oobAfterSwap', sync);
  document.addEventListener('htmx:afterRequest', hintAnswered);
  document.addEventListener('htmx:sseBeforeMessage', timeEvent);
  document.addEventListener('htmx:sseBeforeMessage', notePush);
  document.addEventListener('htmx:sseMessage', function () { sync(); late = 0; });
  document.addEventListener('htmx:sseOpen', streamOpened);
  document.addEventListener('htmx:sseError', streamFailed);
  // A move that never reached the server (the connection dropped) is said
  // so, to be made again.
  document.addEventListener('htmx:sendError', function () {
    toast('#connection', 'That didn’t reach the server: try again.', 4000);
  });
  window.addEventListener('offline', function () { if ($('#live[sse-connect]')) streamFailed(); });
  // Back online with the stream still open, nothing was missed.
  window.addEventListener('online', function () {
    if (down && source && source.readyState === 1) streamOpened({ detail: { source: source } });
  });
  document.addEventListener('DOMContentLoaded', function () {
    if (store.getItem('sort') === 'suit') document.documentElement.classList.add('by-suit');
    if (window.Idiomorph) {
      Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (attr, el) {
        return keepAttribute(attr, el) ? false : undefined;
      };
      Idiomorph.defaults.callbacks.beforeNodeMorphed = function (old, fresh) {
        return keepNode(old, fresh) ? false : undefined;
      };
    }
    sync();
  });
})();
