/* Open a table: choosing a preset fills every house-rule option with its values at once.
 * Without this script the server applies the preset to the options left as they were shown
 * (gameplay/forms.py); with it, the hidden options_from says the options now show that preset. */
(function () {
  "use strict";
  var form = document.getElementById("table-form");
  if (!form) return;
  var data = document.getElementById("tc-presets");
  if (!data) return;
  var presets = JSON.parse(data.textContent);

  function fill(name) {
    var rules = presets[name];
    if (!rules) return;
    Object.keys(rules).forEach(function (key) {
      var value = rules[key];
      var inputs = form.querySelectorAll('[name="' + key + '"]');
      Array.prototype.forEach.call(inputs, function (input) {
        if (input.type === "radio") input.checked = String(input.value) === String(value);
        else if (input.type === "checkbox") input.checked = value === true;
        else input.value = value;
      });
    });
    form.querySelector('[name="options_from"]').value = name;
  }

  form.addEventListener("change", function (e) {
    if (e.target.name === "preset") fill(e.target.value);
  });
})();
