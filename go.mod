module difffuzz

go 1.26
