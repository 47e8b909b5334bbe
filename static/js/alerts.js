// Alerts at the table: a short sound (made by Web Audio, no file) when it becomes your turn (you
// have choices in `legal` after having none) and when 5 seconds are left on your clock (the
// view's `deadline`). While the tab is hidden, the tab's title says "● Your turn" until the tab is
// seen again, and a browser notification says it too, once the person asked for notifications
// with "Notify me" (permission is asked on that click, never on load). The sound has a mute
// switch the browser remembers (localStorage). The controls: templates/table.html #alert-controls.
import { announce, turnSentence } from "./announce.js";
import { $, toast } from "./dom.js";
import { t } from "./i18n.js";

const MUTED_KEY = "t31.sound.muted";
const NOTIFY_KEY = "t31.notify";
const WARN_SECONDS = 5;
const TURN_NOTES = [660, 880]; // rising: your turn
const CLOCK_NOTES = [988, 988, 988]; // three short pips: time is short

const alerting = {
  seen: false, // a first view has been seen (a turn found on load is said, not rung)
  yourTurn: false,
  words: "",
  warned: null, // the deadline the 5-second warning was given for
  base: document.title,
  audio: null,
  sounds: 0,
};

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage refused (a private window): nothing is remembered
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // not remembered; the switch still works for this page
  }
}

const muted = () => stored(MUTED_KEY) === "1";
const notifying = () => stored(NOTIFY_KEY) === "1" && "Notification" in window && Notification.permission === "granted";
const hidden = () => document.visibilityState === "hidden";

// ------------------------------------------------------------------ sound

/** The page's audio; browsers let it play once the person has clicked or pressed a key. */
function audio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!alerting.audio) alerting.audio = new Context();
  if (alerting.audio.state === "suspended") alerting.audio.resume().catch(() => {});
  return alerting.audio;
}

/** A few short sine notes, quiet, each fading out. */
function ring(notes, what) {
  if (muted()) return;
  const ctx = audio();
  const controls = $("#alert-controls");
  alerting.sounds += 1;
  if (controls) {
    controls.dataset.sounds = String(alerting.sounds); // what was rung, for a test to read
    controls.dataset.lastSound = what;
  }
  if (!ctx) return;
  let at = ctx.currentTime + 0.02;
  for (const frequency of notes) {
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = "sine";
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.18, at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(at);
    oscillator.stop(at + 0.15);
    at += 0.16;
  }
}

// ------------------------------------------------------------------ notification and title

function notify(body) {
  if (!hidden() || !notifying()) return;
  try {
    const note = new Notification(alerting.base, { body, tag: `t31-${location.pathname}` });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch {
    // a browser that only notifies from a service worker: the title still says it
  }
}

/** The tab's title: "● Your turn — …" while it is your turn and the tab is hidden. */
function title() {
  document.title = alerting.yourTurn && hidden() ? t("● Your turn — {title}", { title: alerting.base }) : alerting.base;
}

// ------------------------------------------------------------------ what table.js tells

/**
 * The page's state after a render: whether you have choices now (`legal`, with the game's
 * button labels), and the title the tab has when nothing calls for you.
 */
export function turnState(yourTurn, legal, labels, baseTitle) {
  alerting.base = baseTitle;
  const words = yourTurn ? turnSentence(legal, labels) : "";
  const began = yourTurn && !alerting.yourTurn;
  alerting.yourTurn = yourTurn;
  if (began) {
    announce(words);
    if (alerting.seen) {
      ring(TURN_NOTES, "turn");
      notify(words);
    }
  } else if (yourTurn && words !== alerting.words) announce(words); // new choices, same turn
  alerting.words = words;
  alerting.seen = true;
  title();
}

/** The clock: `left` seconds to your decision's deadline (null: no clock). */
export function clockState(left, deadline) {
  if (!alerting.yourTurn || left === null || left <= 0 || left > WARN_SECONDS) return;
  if (alerting.warned === deadline) return;
  alerting.warned = deadline;
  ring(CLOCK_NOTES, "clock");
  notify(t("{seconds} seconds left to decide", { seconds: WARN_SECONDS }));
}

// ------------------------------------------------------------------ the controls

function showSound(button) {
  const on = !muted();
  button.setAttribute("aria-checked", String(on));
  button.querySelector(".switch-state").textContent = on ? t("on") : t("off");
}

function showNotify(button) {
  const supported = "Notification" in window;
  const permission = supported ? Notification.permission : "denied";
  const on = notifying();
  button.setAttribute("aria-pressed", String(on));
  button.querySelector(".switch-state").textContent = on ? t("on") : permission === "denied" ? t("blocked") : t("off");
}

async function toggleNotify(button) {
  if (!("Notification" in window)) {
    toast(t("This browser cannot show notifications; the tab's title still says when it is your turn."), "warn");
    return;
  }
  if (notifying()) store(NOTIFY_KEY, "0");
  else if (Notification.permission === "denied") {
    toast(t("Notifications are blocked for this site: allow them in the browser's site settings."), "warn");
  } else {
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    store(NOTIFY_KEY, answer === "granted" ? "1" : "0");
  }
  showNotify(button);
}

/** Wire the controls (#btn-sound, #btn-notify) and the tab's visibility. */
export function startAlerts() {
  const sound = $("#btn-sound");
  const bell = $("#btn-notify");
  if (sound) {
    showSound(sound);
    sound.addEventListener("click", () => {
      store(MUTED_KEY, muted() ? "0" : "1");
      showSound(sound);
      if (!muted()) ring(TURN_NOTES, "test"); // the sound it will make
    });
  }
  if (bell) {
    showNotify(bell);
    bell.addEventListener("click", () => toggleNotify(bell));
  }
  document.addEventListener("visibilitychange", title);
  // Browsers start audio only after a gesture: the first click or key readies it.
  const ready = () => {
    if (!muted()) audio();
  };
  document.addEventListener("pointerdown", ready, { once: true, capture: true });
  document.addEventListener("keydown", ready, { once: true, capture: true });
}
