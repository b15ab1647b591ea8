from irprops.cli import main

main()
