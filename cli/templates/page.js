/* dummy-spades review --html: step through the play. The page is complete
   without this script (every card is in the tables); the script moves the
   cards to the table, one at a time, from the report embedded in the page. */
(function () {
  "use strict";
  var holder = document.getElementById("page-data");
  if (!holder) { return; }
  var page = JSON.parse(holder.textContent);
  document.body.classList.add("has-js");
  if (page.command !== "review") { return; }

  var cards = page.report.cards;
  var last = cards.length;
  var winners = page.deal.play.tricks.map(function (t) { return t.winner; });
  var symbols = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var suitNames = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  var seating = page.deal.seating;
  var step = 0;

  function each(selector, fn) {
    Array.prototype.forEach.call(document.querySelectorAll(selector), fn);
  }
  var cardElements = {};
  each(".table .card[data-card]", function (el) { cardElements[el.dataset.card] = el; });
  var slots = {};
  each(".centre .slot", function (el) { slots[el.dataset.slot] = el; });
  var wonElements = {};
  each("[data-won]", function (el) { wonElements[el.dataset.won] = el; });
  var handElements = {};
  each(".table .hand", function (el) { handElements[el.dataset.hand] = el; });
  var panels = document.querySelectorAll("#step-panel > .step");
  var rows = {};
  each("#cards-table tbody tr", function (el) { rows[el.dataset.step] = el; });

  function cardFace(c) {
    var face = document.createElement("span");
    face.className = "played-card";
    var label = document.createElement("span");
    label.className = "c " + suitNames[c.card[0]];
    label.textContent = symbols[c.card[0]] + (c.card[1] === "T" ? "10" : c.card.slice(1));
    face.appendChild(label);
    var mark = document.createElement("span");
    mark.className = "mark";
    if (c.lost > 0) {
      mark.classList.add("lost");
      mark.textContent = "\u2212" + c.lost;
    } else {
      mark.textContent = c.choices > 1 ? "best" : "\u00a0";
    }
    face.appendChild(mark);
    var sd = c.single_dummy;
    if (sd) {
      var verdict = document.createElement("span");
      verdict.className = "mark verdict " + sd.verdict;
      verdict.textContent = sd.verdict + (sd.settled ? "" : "?");
      face.appendChild(verdict);
    }
    return face;
  }

  function show(k) {
    step = Math.max(0, Math.min(last, k));
    cards.forEach(function (c, i) {
      var el = cardElements[c.card];
      if (el) { el.classList.toggle("played", i < step); }
    });
    var best = {};
    if (step < last && cards[step].choices > 1) {
      cards[step].best_cards.forEach(function (group) {
        group.forEach(function (card) { best[card] = true; });
      });
    }
    Object.keys(cardElements).forEach(function (card) {
      cardElements[card].classList.toggle("best-choice", best[card] === true);
    });
    Object.keys(slots).forEach(function (name) { slots[name].textContent = ""; });
    var info = "";
    if (step > 0) {
      var trick = Math.floor((step - 1) / 4);
      var first = trick * 4;
      var complete = step - first === 4;
      for (var i = first; i < step; i += 1) {
        var face = cardFace(cards[i]);
        if (complete && cards[i].hand === winners[trick]) { face.classList.add("winner"); }
        if (slots[cards[i].hand]) { slots[cards[i].hand].appendChild(face); }
      }
      info = "trick " + (trick + 1) + (complete && winners[trick] ? " \u00b7 won by " + winners[trick] : "");
    } else {
      info = seating.opening_leader + " to lead";
    }
    document.querySelector(".centre .trick-info").textContent = info;
    var done = Math.floor(step / 4);
    var won = {};
    Object.keys(wonElements).forEach(function (name) { won[name] = 0; });
    for (var t = 0; t < done && t < winners.length; t += 1) { won[winners[t]] += 1; }
    Object.keys(wonElements).forEach(function (name) { wonElements[name].textContent = won[name]; });
    var declarerSide = won[seating.declarer] + won[seating.dummy];
    document.getElementById("tally").textContent = "Tricks: declarer side " + declarerSide +
      ", defenders " + (won[seating.left_defender] + won[seating.right_defender]);
    Object.keys(handElements).forEach(function (name) {
      handElements[name].classList.toggle("to-play", step < last && cards[step].hand === name);
    });
    Array.prototype.forEach.call(panels, function (el) {
      el.classList.toggle("shown", Number(el.dataset.step) === step);
    });
    Object.keys(rows).forEach(function (n) {
      var current = Number(n) === step;
      rows[n].classList.toggle("current", current);
      if (current) { rows[n].setAttribute("aria-current", "step"); } else { rows[n].removeAttribute("aria-current"); }
    });
    document.getElementById("where").textContent = step === 0
      ? "before the opening lead" : "card " + step + " of " + last + ", trick " + Math.ceil(step / 4);
    document.getElementById("to-start").disabled = step === 0;
    document.getElementById("back").disabled = step === 0;
    document.getElementById("back-trick").disabled = step === 0;
    document.getElementById("forward").disabled = step === last;
    document.getElementById("forward-trick").disabled = step === last;
    document.getElementById("to-end").disabled = step === last;
  }

  function trickBack() { show(step === 0 ? 0 : Math.floor((step - 1) / 4) * 4); }
  function trickForward() { show(Math.floor(step / 4) * 4 + 4); }

  document.getElementById("to-start").addEventListener("click", function () { show(0); });
  document.getElementById("back").addEventListener("click", function () { show(step - 1); });
  document.getElementById("forward").addEventListener("click", function () { show(step + 1); });
  document.getElementById("to-end").addEventListener("click", function () { show(last); });
  document.getElementById("back-trick").addEventListener("click", trickBack);
  document.getElementById("forward-trick").addEventListener("click", trickForward);
  function fromAddress() {
    var match = /^#step-(\d+)$/.exec(window.location.hash);
    if (match) { show(Number(match[1])); }
    return match !== null;
  }
  window.addEventListener("hashchange", function () {
    if (fromAddress()) { document.getElementById("play").scrollIntoView(); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
    var handled = true;
    if (event.key === "ArrowRight") {
      if (event.shiftKey) { trickForward(); } else { show(step + 1); }
    } else if (event.key === "ArrowLeft") {
      if (event.shiftKey) { trickBack(); } else { show(step - 1); }
    } else if (event.key === "Home") {
      show(0);
    } else if (event.key === "End") {
      show(last);
    } else {
      handled = false;
    }
    if (handled) { event.preventDefault(); }
  });
  show(0);
  fromAddress();
}());
