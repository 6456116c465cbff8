//! Writes a sample sheet: `cargo run -p labels --example sample -- out.pdf [count]`.
fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "labels.pdf".into());
    let count: usize = args.next().and_then(|c| c.parse().ok()).unwrap_or(30);
    // The US Letter sheet of 30.
    let sheet = labels::Sheet::new(labels::STANDARD[2].1).expect("a letter sheet of 30");
    let all: Vec<labels::Label> = (0..count)
        .map(|i| labels::Label {
            link: format!("https://rentrack.example/scan/1/assets/{}", 1000 + i),
            name: if i % 2 == 0 {
                "Łódź 東京 Kamera".into()
            } else {
                format!("Tent {i}")
            },
            number: format!("#{}", 1000 + i),
            identifier: Some(format!("SN-{i:05}")),
            company: "Acme Rentals".into(),
        })
        .collect();
    let t = std::time::Instant::now();
    let pdf = labels::render(&sheet, &all).expect("renders");
    eprintln!("{count} labels: {} bytes in {:?}", pdf.len(), t.elapsed());
    std::fs::write(out, pdf).expect("writes");
}
