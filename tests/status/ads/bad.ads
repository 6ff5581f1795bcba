MyType = "Machine"
Name = "x"
foo = 
