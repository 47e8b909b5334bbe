// A text an engine wrote in English on the server (a view's status, a hand's note, the dealer's
// calls, a view's messages), shown as it came and marked as such (class server-words): the
// reader's language cannot reach it until the view carries what it says rather than the words
// (tests/browser/test_pseudo_locale_browser.py lists it as pending).

/** `text` in a span marked server-words. */
export function serverWords(text) {
  const span = document.createElement("span");
  span.className = "server-words";
  span.textContent = String(text);
  return span;
}
