// A form's field errors and numbers, alike for every form of the lobby: the error is shown
// beside the field the server named (or under the form), and the field gets the focus.

/** The helpers of `form`: `clear()` its errors, `show(field, message)`, `number(name)`. */
export function formErrors(form) {
  const clear = () => {
    for (const note of form.querySelectorAll(".field-error")) note.textContent = "";
    for (const field of form.querySelectorAll(".field")) field.classList.remove("invalid");
  };
  const show = (field, message) => {
    const box = field && form.querySelector(`.field[data-field="${field}"]`);
    if (box) {
      box.classList.add("invalid");
      box.querySelector(".field-error").textContent = message;
      const input = box.querySelector("input, select");
      if (input) input.focus();
    } else {
      form.querySelector('[data-field-error="form"]').textContent = message;
    }
  };
  // A number field sends its number; anything else is sent as typed, for the server to name.
  const number = (name) => {
    const raw = form.elements[name].value.trim();
    return /^-?\d+$/.test(raw) ? Number(raw) : raw === "" ? null : raw;
  };
  return { clear, show, number };
}
