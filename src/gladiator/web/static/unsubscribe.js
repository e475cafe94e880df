// The unsubscribe page of a notice's link (rulings CP6): its button posts to the page's own
// address (the key is in its query), and the answer is shown in the page. Loading the page
// changes nothing: mail scanners fetch every link in a mail.

const form = document.querySelector("#unsubscribe");
const done = document.querySelector("#done");
const problem = document.querySelector("#problem");
const button = document.querySelector("#go");

const parts = location.pathname.split("/");
if (parts.length === 4) {
  const seat = decodeURIComponent(parts[3]);
  const match = decodeURIComponent(parts[2]);
  document.querySelector("#what").textContent = `Unsubscribe seat ${seat} of match ${match}`;
}

function say(node, text) {
  node.textContent = text;
  node.hidden = false;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  button.disabled = true;
  problem.hidden = true;
  try {
    const answer = await fetch(location.pathname + location.search, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    const text = await answer.text();
    if (answer.ok) {
      form.hidden = true;
      say(done, text);
      return;
    }
    let error = text;
    try {
      error = JSON.parse(text).error || text;
    } catch {
      // a plain answer is said as it is
    }
    say(problem, error);
  } catch {
    say(problem, "The server could not be reached: try again in a moment.");
  }
  button.disabled = false;
});
