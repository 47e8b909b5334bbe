// The player's own devices on their page (docs/protocol.md §3 "Devices and sign-out"): every
// browser or program signed in as them, with a "Sign out" button each and "Sign out everywhere
// else". GET /api/me/devices, DELETE /api/me/devices/{id}, POST /api/me/signout,
// POST /api/me/signout-others.
import { $, fill, h, toast } from "./dom.js";
import { request } from "./http.js";
import { t, tn } from "./i18n.js";
import { when } from "./review-api.js";

const CONFIRM_MS = 6000;

/** A call of the player's own (the session cookie); throws an HttpError when refused. */
const call = (method, path) => request(method, path);

/** A sentence's parts: its text, each {name} in it replaced by the node `nodes[name]` (a
 *  sentence with markup inside stays one message). */
function placed(text, nodes) {
  return text.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && Object.hasOwn(nodes, name) ? nodes[name] : part;
  });
}

function daysBetween(from, to) {
  return Math.round((new Date(to) - new Date(from)) / 86_400_000);
}

/** A button that asks once more before it acts (no dialog: a second click within a few
 * seconds confirms). */
function confirmingButton(label, question, action, attrs = {}) {
  const button = h("button", { type: "button", class: "btn btn-small", ...attrs }, label);
  let armed = null;
  button.addEventListener("click", async () => {
    if (!armed) {
      button.textContent = question;
      button.classList.add("btn-danger");
      armed = setTimeout(() => {
        armed = null;
        button.textContent = label;
        button.classList.remove("btn-danger");
      }, CONFIRM_MS);
      return;
    }
    clearTimeout(armed);
    armed = null;
    button.disabled = true;
    try {
      await action();
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

export class DevicesPanel {
  constructor(me) {
    this.me = me;
    this.panel = $("#devices");
    this.body = $("#devices-table tbody");
    this.error = $("#devices-error");
    this.others = $("#signout-others");
    this.others.addEventListener("click", () => this.signOutOthers());
  }

  async load() {
    this.error.textContent = "";
    let data;
    try {
      data = await call("GET", "/api/me/devices");
    } catch (err) {
      if (err.status === 401) {
        this.signedOut();
        return;
      }
      this.error.textContent = err.message;
      this.panel.hidden = false;
      return;
    }
    this.render(data.devices);
  }

  render(devices) {
    this.panel.hidden = false;
    const current = devices.find((d) => d.this_device);
    if (current) {
      const days = daysBetween(current.last_used_at, current.expires_at);
      fill($("#devices-help"), ...placed(tn(
        "Every browser or program signed in as you. Sign out any you do not know; one left unused for {n} day signs itself out. Before you sign out here, keep another device or a recovery link (in the lobby): signing out of every device leaves no way back to {name}.",
        "Every browser or program signed in as you. Sign out any you do not know; one left unused for {n} days signs itself out. Before you sign out here, keep another device or a recovery link (in the lobby): signing out of every device leaves no way back to {name}.",
        days), { name: h("strong", {}, this.me.name) }));
    }
    // this device first, then the others as the server lists them (the last used first)
    const ordered = [...devices].sort((a, b) => Number(b.this_device) - Number(a.this_device));
    fill(this.body, ordered.map((d) => this.row(d)));
    this.others.hidden = devices.length < 2;
  }

  row(device) {
    const label = device.label_words || device.label || t("Unknown device");
    const action = device.this_device
      ? confirmingButton(t("Sign out"), t("Sign out here?"), () => this.signOutHere(), { "data-device-id": device.device_id })
      : confirmingButton(t("Sign out"), t("Sign it out?"), () => this.revoke(device), {
          "data-device-id": device.device_id, "aria-label": t("Sign out {device}", { device: label }),
        });
    return h("tr", { dataset: { deviceId: device.device_id }, class: device.this_device ? "is-you" : "" },
      h("td", {}, h("span", { class: "device-label" }, label), " ",
        device.this_device ? h("span", { class: "pill pill-this-device" }, t("this device")) : null),
      h("td", {}, when(device.created_at)),
      h("td", {}, when(device.last_used_at)),
      h("td", { class: "device-action" }, action));
  }

  async revoke(device) {
    try {
      await call("DELETE", `/api/me/devices/${encodeURIComponent(device.device_id)}`);
      const label = device.label_words || device.label;
      toast(label ? t("Signed out: {device}.", { device: label }) : t("Signed out: that device."), "info");
    } catch (err) {
      this.error.textContent = err.message;
    }
    await this.load();
  }

  async signOutHere() {
    try {
      await call("POST", "/api/me/signout");
    } catch (err) {
      this.error.textContent = err.message;
      return;
    }
    location.assign("/");
  }

  async signOutOthers() {
    this.others.disabled = true;
    try {
      const { signed_out: count } = await call("POST", "/api/me/signout-others");
      toast(tn("{n} other device signed out.", "{n} other devices signed out.", count), "info");
    } catch (err) {
      this.error.textContent = err.message;
    } finally {
      this.others.disabled = false;
    }
    await this.load();
  }

  signedOut() {
    this.panel.hidden = false;
    fill(this.body);
    this.others.hidden = true;
    fill($("#devices-help"), ...placed(t("This device is signed out. {link}."), {
      link: h("a", { href: "/" }, t("Choose a name in the lobby")) }));

  }
}
