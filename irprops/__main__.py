from irprops.entry import main

main()
