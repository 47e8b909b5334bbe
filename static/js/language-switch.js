// The language switch in every page's top bar (templates/base.html, #lang-switch): choosing a
// language stores it (PUT /api/me/language: with the player, on every device they use, and in
// this browser's cookie for a visitor who is not signed in), then reloads the page in it.
import { request } from "./http.js";
import { toast } from "./dom.js";

const select = document.getElementById("lang-switch");
if (select) {
  select.addEventListener("change", async () => {
    const language = select.value;
    select.disabled = true;
    try {
      await request("PUT", "/api/me/language", { body: { language } });
      location.reload();
    } catch (err) {
      select.value = select.dataset.current;
      select.disabled = false;
      toast(err.message);
    }
  });
}
