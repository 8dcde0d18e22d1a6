//! The explainer's chapter numbers, its table of contents and the count
//! its summary gives ("The twenty sections") are made from its sections,
//! not kept by hand: a numbered section is a `<section class="chapter">`
//! whose heading holds a `<span class="number">`, in page order. After
//! adding, moving or retitling one, `LBSIM_BLESS=1 cargo test --test
//! explainer_contents` writes them into explain.html; without it, this
//! test fails while they disagree with the sections.

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/explain.html");

const NUMBER_OPEN: &str = "<span class=\"number\">";

/// A numbered section: its id and its heading's title (HTML, as written).
struct Section {
    id: String,
    title: String,
}

/// Each numbered section's heading start (the offset of its number's
/// text) and the section.
fn sections(html: &str) -> Vec<(usize, Section)> {
    let mut found = Vec::new();
    for (start, _) in html.match_indices("<section class=\"chapter\" id=\"") {
        let rest = &html[start..];
        let id = between(rest, "id=\"", "\"");
        let heading = &rest[rest.find("<h2").expect("a section's heading")..];
        let heading = &heading[..heading.find("</h2>").expect("its heading's end")];
        let Some(number) = heading.find(NUMBER_OPEN) else { continue };
        let after = &heading[number + NUMBER_OPEN.len()..];
        let title = after[after.find("</span>").unwrap() + "</span>".len()..].trim().to_string();
        let offset =
            start + (heading.as_ptr() as usize - rest.as_ptr() as usize) + number + NUMBER_OPEN.len();
        found.push((offset, Section { id: id.to_string(), title }));
    }
    found
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> &'a str {
    let start = text.find(open).unwrap() + open.len();
    &text[start..start + text[start..].find(close).unwrap()]
}

/// `n` in words, for the summary's count (up to 99 sections).
fn words(n: usize) -> String {
    const ONES: [&str; 20] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: [&str; 10] =
        ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
    match (n / 10, n % 10) {
        _ if n < 20 => ONES[n].to_string(),
        (tens, 0) => TENS[tens].to_string(),
        (tens, ones) => format!("{}-{}", TENS[tens], ONES[ones]),
    }
}

/// `html` with its numbers, table of contents and count made from its
/// sections.
fn contents(html: &str) -> String {
    let sections = sections(html);
    let mut page = html.to_string();
    for (i, (offset, _)) in sections.iter().enumerate().rev() {
        let end = offset + page[*offset..].find("</span>").unwrap();
        page.replace_range(*offset..end, &(i + 1).to_string());
    }
    let toc = page.find("<nav class=\"toc\"").expect("the table of contents");
    let ol = toc + page[toc..].find("<ol>").unwrap() + "<ol>".len();
    let close = ol + page[ol..].find("</ol>").unwrap();
    let indent = "\n      ";
    let items: String = sections
        .iter()
        .map(|(_, s)| format!("{indent}  <li><a href=\"#{}\">{}</a></li>", s.id, s.title))
        .collect();
    page.replace_range(ol..close, &format!("{items}{indent}"));
    let summary = toc + page[toc..].find("<summary>").expect("the contents' summary") + "<summary>".len();
    let end = summary + page[summary..].find("</summary>").unwrap();
    page.replace_range(summary..end, &format!("The {} sections", words(sections.len())));
    page
}

#[test]
fn the_numbers_contents_and_count_are_made_from_the_sections() {
    let html = std::fs::read_to_string(PATH).unwrap();
    let made = contents(&html);
    if std::env::var_os("LBSIM_BLESS").is_some() {
        std::fs::write(PATH, &made).unwrap();
        return;
    }
    assert!(
        made == html,
        "explain.html's chapter numbers, contents or count disagree with its sections: \
         run LBSIM_BLESS=1 cargo test --test explainer_contents"
    );
}

#[test]
fn counts_are_words() {
    let said: Vec<String> = [1, 9, 13, 20, 21, 40, 99].into_iter().map(words).collect();
    assert_eq!(said, ["one", "nine", "thirteen", "twenty", "twenty-one", "forty", "ninety-nine"]);
}

#[test]
fn a_new_section_is_numbered_listed_and_counted() {
    let html = std::fs::read_to_string(PATH).unwrap();
    let further = html.find("<section class=\"chapter\" id=\"further\"").unwrap();
    let mut added = html.clone();
    added.insert_str(
        further,
        "<section class=\"chapter\" id=\"slow-start\">\n      <h2 id=\"slow-start-title\"><span class=\"number\"></span> \
         Slow start</h2>\n    </section>\n\n    ",
    );
    let made = contents(&added);
    // Last of the chapters, whichever number that is and whichever
    // chapter came last before it.
    let before = sections(&html);
    let count = before.len() + 1;
    let last = &before.last().expect("numbered sections").1;
    assert!(made.contains(&format!("<span class=\"number\">{count}</span> Slow start</h2>")));
    let listed = format!(
        "<li><a href=\"#{}\">{}</a></li>\n        <li><a href=\"#slow-start\">Slow start</a></li>\n      </ol>",
        last.id, last.title
    );
    assert!(made.contains(&listed), "{listed}");
    assert!(made.contains(&format!("<summary>The {} sections</summary>", words(count))));
    assert!(!made.contains("#further"));
}
