// The client's words in the reader's language (docs/i18n.md). The server puts its catalog for the
// page's language in the page (templates/base.html, #i18n-catalog: GET /i18n/{locale}.json's
// JSON, the `js` domain of app/i18n/locale/<lang>/LC_MESSAGES/js.po), so it is here before any
// module runs; a message the catalog lacks reads as its English msgid.
//
//   t("Open tables")                               a fixed text
//   t("Join {name}", { name: table.name })         with values: {name} replaced, never translated
//   tn("{n} bot", "{n} bots", count, { n: ... })   plural forms: the language's rule picks one
//   tc("room", "Hand over")                        in a context: one English text, two meanings
//   formatNumber(1234), formatDate(new Date())     the page's locale, through Intl
//
// Every string a person reads goes through t or tn with a literal msgid (make extract reads
// them from the source); values (names, numbers) go in as {placeholders}.

const EMPTY = { locale: "en", format: "en", plural: ["one", "other"], messages: {} };

function readCatalog() {
  const el = typeof document === "undefined" ? null : document.getElementById("i18n-catalog");
  if (!el) return EMPTY;
  try {
    return { ...EMPTY, ...JSON.parse(el.textContent) };
  } catch {
    return EMPTY; // an unreadable catalog: English, rather than no page at all
  }
}

const catalog = readCatalog();
const rules = new Intl.PluralRules(catalog.format);

/** The page's language (the catalog's), e.g. "fr". */
export const locale = catalog.locale;

function fillIn(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** `msgid` in the page's language, its {placeholders} filled from `params`. */
export function t(msgid, params) {
  const found = catalog.messages[msgid];
  return fillIn(typeof found === "string" && found ? found : msgid, params);
}

/** `msgid` as worded in `context`, where one English text names two things a language words
 *  apart (gettext's pgettext): the room's "Hand over" button is not a hand's "Hand over". */
export function tc(context, msgid, params) {
  const found = catalog.messages[`${context}\u0004${msgid}`];
  return fillIn(typeof found === "string" && found ? found : msgid, params);
}

/** The form of `singular`/`plural` for `n` in the page's language (its catalog's forms, chosen
 *  by Intl.PluralRules' category as the server's catalog maps them), placeholders filled;
 *  `n` itself is given to the text as {n} unless `params` says otherwise. */
export function tn(singular, plural, n, params) {
  const values = { n: formatNumber(n), ...params };
  const forms = catalog.messages[singular];
  if (Array.isArray(forms) && forms.length) {
    const index = catalog.plural.indexOf(rules.select(n));
    const form = forms[index >= 0 && index < forms.length ? index : forms.length - 1];
    if (form) return fillIn(form, values);
  }
  return fillIn(n === 1 ? singular : plural, values);
}

// Intl's formatters, made once for each set of options: making one costs far more than using
// it, and a table's page formats every chip count and log time again at each state.
const formatters = new Map();

function formatter(Kind, options) {
  const key = `${Kind.name} ${JSON.stringify(options ?? {})}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Kind(catalog.format, options);
    formatters.set(key, made);
  }
  return made;
}

/** A number as the page's locale writes it (1,234 / 1.234 / 1 234). */
export function formatNumber(n, options) {
  return typeof n === "number" ? formatter(Intl.NumberFormat, options).format(n) : String(n);
}

/** A date (and time, with `options`) as the page's locale writes it. */
export function formatDate(date, options = { dateStyle: "medium" }) {
  return formatter(Intl.DateTimeFormat, options).format(date instanceof Date ? date : new Date(date));
}

/** A time of day as the page's locale writes it. */
export function formatTime(date, options = { timeStyle: "medium" }) {
  return formatter(Intl.DateTimeFormat, options).format(date instanceof Date ? date : new Date(date));
}
