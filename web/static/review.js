// The review's keys: Left and Right step back and on, Home and End go to the
// deal and the last play, by clicking the page's own step links (which htmx
// follows, or the browser does without it). The slider keeps its own keys
// while it has the focus.
(function () {
  'use strict';
  var links = { ArrowLeft: '#rv-prev', ArrowRight: '#rv-next', Home: '#rv-first', End: '#rv-last' };
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    var sel = links[e.key];
    if (!sel) return;
    var t = e.target, tag = t.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || t.isContentEditable) return;
    var a = document.querySelector(sel);
    e.preventDefault();
    if (a && a.tagName === 'A') a.click();
  });
})();
