module bullshit

go 1.26
