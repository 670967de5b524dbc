// The calculator shows the chosen method's parameters only. Without this script the page is sent
// again for another method ("Show its parameters"); with it, the others are hidden and disabled
// (so the form sends none of them) as soon as another method is chosen.
const form = document.getElementById("calculator-form");
const method = form && form.elements.namedItem("method");
if (method) {
  const show = () => {
    for (const fieldset of form.querySelectorAll("fieldset[data-method]")) {
      const chosen = fieldset.dataset.method === method.value;
      fieldset.hidden = !chosen;
      fieldset.disabled = !chosen;
    }
  };
  method.addEventListener("change", show);
  form.querySelector("button[name=choose]").hidden = true;
  show();
}
