/// A fixture of near misses for the answer checker (tolerance on, accents ignored): typos of the
/// answer that count, and real other words, close in spelling, that must not.
///
/// Each row is `expected`, `given`: the first block counts, the second does not.
enum NearMissTable {
    /// Typos that count: a swap of neighbours, a doubled letter, a missing, extra or wrong letter
    /// inside a word, accents and case.
    static let typos: [(expected: String, given: String)] = [
        ("Copenhagen", "Copenhagn"), ("Copenhagen", "Coppenhagen"), ("Copenhagen", "Copenahgen"),
        ("Copenhagen", "copenhaggen"), ("Copenhagen", "Copanhagen"), ("Mississippi", "Misisippi"),
        ("Mississippi", "Mississipi"), ("Mississippi", "Missisippi"), ("Paris", "Parris"), ("Paris", "Parsi"),
        ("Paris", "Pariss"), ("Paris", "PARIS"), ("Oslo", "Olso"), ("Oslo", "Osslo"), ("Vienna", "Viena"),
        ("Vienna", "Vienan"), ("Vienna", "Vianna"), ("Vienna", "Viennna"), ("Mars", "Marrs"), ("Mars", "Msrs"),
        ("Jupiter", "Jupitor"), ("Jupiter", "Jupiterr"), ("Jupiter", "Juptier"), ("Saturn", "Satrun"),
        ("Saturn", "Saturnn"), ("Elephant", "Elephent"), ("Elephant", "Elefant"), ("Elephant", "Eelephant"),
        ("Giraffe", "Girafe"), ("Giraffe", "Girraffe"), ("Giraffe", "Giarffe"), ("Kangaroo", "Kangeroo"),
        ("Kangaroo", "Kangaro"), ("Kangaroo", "Kangarooo"), ("Penguin", "Pengiun"), ("Penguin", "Pinguin"),
        ("Chocolate", "Chocolete"), ("Chocolate", "Choclate"), ("Chocolate", "Chocolatte"),
        ("Spaghetti", "Spagetti"), ("Spaghetti", "Spaghettii"), ("Spaghetti", "Spahgetti"),
        ("Beethoven", "Beethovan"), ("Beethoven", "Bethoven"), ("Beethoven", "Beethovven"),
        ("Shakespeare", "Shakespere"), ("Shakespeare", "Shakspeare"), ("Shakespeare", "Shakesepare"),
        ("Hà Nội", "Ha Noi"), ("Hà Nội", "Hanoi"), ("Hà Nội", "ha  noi"), ("Đà Nẵng", "Da Nang"),
        ("Đà Nẵng", "Danang"), ("Tromsø", "Tromso"), ("Ærø", "Aero"), ("Plzeň", "Plzen"),
        ("Zürich", "Zurich"), ("Zürich", "Zuerich"), ("São Paulo", "Sao Paulo"), ("São Paulo", "Sao Paolo"),
        ("New York", "NewYork"), ("New York", "New Yrok"), ("New York", "new york"), ("Guinea-Bissau", "Guinea Bisau"),
        ("Buenos Aires", "Buenos Aries"), ("Buenos Aires", "Beunos Aires"), ("Hydrogen", "Hydrogin"),
        ("Hydrogen", "Hyrdogen"), ("Oxygen", "Oxigen"), ("Oxygen", "Oxyegn"), ("Photosynthesis", "Photosynthesys"),
        ("Photosynthesis", "Photosinthesis"),
        ("Basketball", "Basketbal"), ("Basketball", "Baskettball"), ("Volleyball", "Voleyball"),
        ("Marathon", "Marathin"), ("Marathon", "Maraton"), ("Budapest", "Budapset"), ("Budapest", "Budappest"),
        ("Amsterdam", "Amsterdamm"), ("Amsterdam", "Amsterdom"), ("Australia", "Austrailia"),
        ("Australia", "Australa"), ("Portugal", "Protugal"), ("Portugal", "Portugall"), ("Leopard", "Leopord"),
        ("Leopard", "Lepoard"), ("Octopus", "Octapus"), ("Octopus", "Ocotpus"), ("Croissant", "Croisant"),
        ("Croissant", "Crossaint"), ("Avocado", "Avacado"), ("Avocado", "Avocaddo"), ("Tchaikovsky", "Tchaikovksy"),
        ("Tchaikovsky", "Tchaikowsky"), ("Seven Samurai", "Seven Samuari"), ("Twenty Twenty", "twenty twenty"),
    ]

    /// Other words that must not count: a different first or last letter, a letter added at an end,
    /// a different number.
    static let otherWords: [(expected: String, given: String)] = [
        ("Eight", "eighty"), ("Eight", "Eighth"), ("Eight", "Weight"), ("Eight", "height"), ("Vienna", "Sienna"),
        ("Mars", "Mary"), ("Mars", "Bars"), ("Mars", "Mare"), ("Mars", "Marsh"), ("Mars", "Ears"),
        ("Paris", "Parish"), ("Paris", "Aris"), ("Paris", "Pari"), ("Rome", "Roma"), ("Rome", "Home"),
        ("Rome", "Romeo"), ("Chile", "China"), ("Chile", "Chili"), ("Iran", "Iraq"), ("Austria", "Australia"),
        ("Sweden", "Sweet"),
        ("Malta", "Mali"), ("Niger", "Nigeria"), ("Peru", "Perm"), ("Cuba", "Tuba"), ("Mali", "Bali"),
        ("Seven", "Eleven"), ("Seven", "Steven"), ("Seventy", "Seventeen"), ("Three", "Thee"), ("Nine", "Mine"),
        ("Ten", "Tan"), ("Four", "Fourty"), ("Forty", "Fourty"), ("Sixty", "Sixth"), ("1989", "1988"),
        ("1989", "1998"), ("42", "24"), ("100", "1000"), ("7", "seven"), ("Apollo 11", "Apollo 13"),
        ("Saturn", "Saturday"), ("Venus", "Venue"), ("Neptune", "Fortune"), ("Mouse", "House"), ("Bear", "Bean"),
        ("Bear", "Beard"), ("Camel", "Camelot"), ("Camel", "Caramel"), ("Lion", "Lions den"),
        ("Wolf", "Golf"), ("Eagle", "Beagle"), ("Eagle", "Eagles"), ("Tiger", "Tigers"),
        ("Bread", "Break"), ("Bread", "Dread"), ("Pasta", "Paste"), ("Pasta", "Pastas"), ("Rice", "Rich"),
        ("Rice", "Price"), ("Cake", "Lake"), ("Pear", "Peak"), ("Lemon", "Demon"), ("Lemon", "Lemons"),
        ("Neon", "Nylon"), ("Helium", "Helix"),
        ("Tennis", "Tennessee"), ("Chess", "Chest"), ("Polo", "Pole"),
        ("Hamlet", "Hamlets"), ("Hamlet", "Camlet"), ("Bach", "Back"), ("Verdi", "Verde"), ("Berlin", "Merlin"),
        ("Berlin", "Berlioz"), ("Milan", "Milano"), ("Lima", "Limo"), ("Hà Nội", "Ha Nam"), ("Tromsø", "Trompe"),
        ("New York", "New Yorker"),
        ("New York", "New Work"), ("Buenos Aires", "Buenos Dias"),
    ]
}
