// The recovery screen's one script, served as /recovery.js. It trades the window's one-time code
// (in the address the app opened) for a session token, keeps the token in this tab's
// sessionStorage only, and sends it as X-Sanad-Session with every request; it puts the content the
// server rendered (and escaped) on the page, posts each form as JSON, and asks again every two
// seconds while a restore runs. Plain ES2017, no build step: it must work when nothing else does.
export const RECOVERY_SCRIPT = `'use strict';
(function () {
  var KEY = 'sanad-recovery-session';
  function headers(json) {
    var h = {};
    var token = sessionStorage.getItem(KEY);
    if (token) h['x-sanad-session'] = token;
    if (json) h['content-type'] = 'application/json';
    return h;
  }
  function show(content) {
    document.title = content.title;
    document.body.innerHTML = content.html;
    var forms = document.querySelectorAll('form');
    for (var i = 0; i < forms.length; i++) forms[i].addEventListener('submit', submit);
    if (content.refresh) setTimeout(render, 2000);
  }
  function render() {
    return fetch('/recovery/page', { headers: headers(false) }).then(function (r) { return r.json(); }).then(show);
  }
  function submit(event) {
    event.preventDefault();
    var form = event.currentTarget;
    var body = {};
    new FormData(form).forEach(function (value, name) { body[name] = String(value); });
    fetch(form.getAttribute('action'), { method: 'POST', headers: headers(true), body: JSON.stringify(body) }).then(render);
  }
  var code = new URL(location.href).searchParams.get('code');
  var signIn = code === null ? Promise.resolve() : fetch('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: code }) })
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (answer) {
      if (answer && typeof answer.token === 'string') sessionStorage.setItem(KEY, answer.token);
      // The code is spent: it leaves the address bar and the history.
      history.replaceState(null, '', '/');
    });
  signIn.then(render);
})();
`;
