// The page of a table that is not there (the server answers it with 404): it says so in the
// reader's language, naming the table of the address, with the way back to the lobby.

import { onLangChange, t, translateStatic } from "./i18n.js";
import { mountLangSwitch } from "./lobby.js";

function render() {
  translateStatic();
  const id = (location.pathname.match(/\/tables\/([^/]+)/) || [])[1];
  let table = "";
  try {
    table = id ? decodeURIComponent(id) : "";
  } catch {
    table = id || "";
  }
  document.getElementById("no-table-text").textContent = /^\d{1,18}$/.test(table)
    ? t("ui.no_table_text", { table }) : t("error.no_table");
  document.title = `${t("ui.no_table_title")} · stud`;
}

mountLangSwitch();
onLangChange(render);
render();
