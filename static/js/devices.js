// The player's own devices on their page (docs/protocol.md §3 "Devices and sign-out"): every
// browser or program signed in as them, with a "Sign out" button each and "Sign out everywhere
// else". GET /api/me/devices, DELETE /api/me/devices/{id}, POST /api/me/signout,
// POST /api/me/signout-others.
import { $, fill, h, toast } from "./dom.js";
import { request } from "./http.js";
import { when } from "./review-api.js";

const CONFIRM_MS = 6000;

/** A call of the player's own (the session cookie); throws an HttpError when refused. */
const call = (method, path) => request(method, path);

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
      fill($("#devices-help"),
        "Every browser or program signed in as you. Sign out any you do not know; one left unused ",
        `for ${days} days signs itself out. Before you sign out here, keep another device or a recovery `,
        "link (in the lobby): signing out of every device leaves no way back to ", h("strong", {}, this.me.name), ".");
    }
    // this device first, then the others as the server lists them (the last used first)
    const ordered = [...devices].sort((a, b) => Number(b.this_device) - Number(a.this_device));
    fill(this.body, ordered.map((d) => this.row(d)));
    this.others.hidden = devices.length < 2;
  }

  row(device) {
    const label = device.label || "Unknown device";
    const action = device.this_device
      ? confirmingButton("Sign out", "Sign out here?", () => this.signOutHere(), { "data-device-id": device.device_id })
      : confirmingButton("Sign out", "Sign it out?", () => this.revoke(device), {
          "data-device-id": device.device_id, "aria-label": `Sign out ${label}`,
        });
    return h("tr", { dataset: { deviceId: device.device_id }, class: device.this_device ? "is-you" : "" },
      h("td", {}, h("span", { class: "device-label" }, label), " ",
        device.this_device ? h("span", { class: "pill pill-this-device" }, "this device") : null),
      h("td", {}, when(device.created_at)),
      h("td", {}, when(device.last_used_at)),
      h("td", { class: "device-action" }, action));
  }

  async revoke(device) {
    try {
      await call("DELETE", `/api/me/devices/${encodeURIComponent(device.device_id)}`);
      toast(`Signed out: ${device.label || "that device"}.`, "info");
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
      toast(count === 1 ? "1 other device signed out." : `${count} other devices signed out.`, "info");
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
    fill($("#devices-help"), "This device is signed out. ", h("a", { href: "/" }, "Choose a name in the lobby"), ".");
  }
}
