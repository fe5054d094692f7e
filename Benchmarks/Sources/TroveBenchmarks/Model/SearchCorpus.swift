import Foundation

/// The documents of the full-text search suite (issue 14), made from a fixed seed: every run
/// and every implementation stores the same text.
///
/// Words come from a fixed vocabulary of 5,000 made-up words, drawn with a Zipf distribution
/// (the word of rank r has a weight of 1/r), so that, as in real text, a few words are in
/// nearly every document and most are rare: a one-word query of a word of middle rank hits a
/// realistic share of the rows, not all or none.
struct SearchCorpus {
    /// The documents, in key order.
    let documents: [Document]
    /// The vocabulary, most frequent first.
    let vocabulary: [String]

    static let vocabularySize = 5_000

    init(count: Int) {
        var random = SplitMix64(seed: 0x4654_5335)
        let vocabulary = SearchCorpus.makeVocabulary(random: &random)
        self.vocabulary = vocabulary
        var cumulative: [Double] = []
        cumulative.reserveCapacity(vocabulary.count)
        var total = 0.0
        for rank in 1...vocabulary.count {
            total += 1 / Double(rank)
            cumulative.append(total)
        }
        func word(_ random: inout SplitMix64) -> String {
            let target = Double(random.next() >> 11) / Double(1 << 53) * total
            var low = 0
            var high = cumulative.count - 1
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] < target { low = middle + 1 } else { high = middle }
            }
            return vocabulary[low]
        }
        documents = (0..<count).map { index in
            let titleWords = 4 + Int(random.next() % 5)
            let bodyWords = 150 + Int(random.next() % 201)
            let title = (0..<titleWords).map { _ in word(&random) }.joined(separator: " ")
            var body = ""
            body.reserveCapacity(bodyWords * 8)
            for position in 0..<bodyWords {
                if position > 0 { body += position % 17 == 0 ? ". " : " " }
                body += word(&random)
            }
            body += "."
            return Document(id: SearchCorpus.key(index: index), title: title, body: body)
        }
    }

    static func key(index: Int) -> String {
        let digits = String(index)
        return "doc-" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    /// Distinct words of two to four syllables, some with a diacritic (removed by the tokenizer).
    private static func makeVocabulary(random: inout SplitMix64) -> [String] {
        let onsets = ["b", "c", "d", "f", "g", "l", "m", "n", "p", "r", "s", "t", "v", "br", "tr", "st", "ch"]
        let vowels = ["a", "e", "i", "o", "u", "ou", "ai", "é", "è"]
        var seen = Set<String>()
        var words: [String] = []
        while words.count < vocabularySize {
            let syllables = 2 + Int(random.next() % 3)
            var word = ""
            for _ in 0..<syllables {
                word += onsets[Int(random.next() % UInt64(onsets.count))]
                word += vowels[Int(random.next() % UInt64(vowels.count))]
            }
            if random.next() % 3 == 0 { word += ["n", "r", "s", "l"][Int(random.next() % 4)] }
            // Folded as the tokenizer folds, so that no two words are one token.
            let folded = word.folding(options: .diacriticInsensitive, locale: nil)
            if seen.insert(folded).inserted { words.append(word) }
        }
        return words
    }
}
